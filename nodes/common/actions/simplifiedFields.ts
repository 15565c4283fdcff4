/**
 * What Simplify keeps of records with more than 10 fields, per operation (pure data, so tests and docs can
 * import it without loading the operations).
 */

/** Account summary (17 fields). */
export const SIMPLE_SUMMARY_FIELDS = [
	'account_number',
	'account_name',
	'account_type',
	'status',
	'balance',
	'total_collections',
	'total_collection_amount',
	'total_transfers',
	'total_transfer_amount',
	'last_transaction_date',
] as const;

/** Account collection aggregate (13 fields). */
export const SIMPLE_COLLECTION_FIELDS = [
	'account_number',
	'account_name',
	'account_type',
	'status',
	'balance',
	'pool_account_number',
	'total_collections',
	'total_collection_amount',
	'last_transaction_date',
] as const;

/** API-client transaction (11 fields with its id; the category follows from the type). */
export const SIMPLE_TRANSACTION_FIELDS = [
	'reference_number',
	'account_number',
	'account_name',
	'amount',
	'transaction_type',
	'status',
	'channel',
	'remarks',
	'created_at',
] as const;
