/** The bank's internal records. Money is BigInt minor units; times are epoch ms (formatted at the edge). */

export type AccountType = 'pool' | 'virtual' | 'current' | 'savings' | 'normal';
export type AccountStatus = 'active' | 'inactive' | 'blocked' | 'closed' | 'pending';
export type TxStatus = 'success' | 'pending' | 'failed';
export type TransferStatus = 'pending' | 'successful' | 'failed';
export type EventKind = 'COLLECTION_SUCCESS' | 'TRANSFER_SUCCESS' | 'TRANSFER_FAILED';

export const EVENT_KINDS: readonly EventKind[] = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];

export interface Business {
	id: string;
	name: string;
	/** username shown by validate_token */
	username: string;
	active: boolean;
	clientId?: string;
	clientSecret?: string;
	webhookSecret: string;
}

export interface Account {
	id: string;
	businessId: string;
	accountNumber: string;
	accountName: string;
	accountType: AccountType;
	accountClass: 'primary' | 'secondary';
	status: AccountStatus;
	balance: bigint;
	lastBalanceUpdateMs: number;
	poolAccountNumber: string | null;
	createdAtMs: number;
	/** identity data of create_customer_account; stored, never returned */
	customer?: { email: string; phone: string; bvn?: string; nin?: string };
}

export interface Transaction {
	id: string;
	businessId: string;
	reference: string;
	accountNumber: string;
	accountName: string;
	amount: bigint;
	type: 'credit' | 'debit';
	category: string;
	status: TxStatus;
	channel: string;
	narration: string;
	createdAtMs: number;
}

export interface Settlement {
	id: string;
	businessId: string;
	reference: string;
	accountNumber: string;
	amount: bigint;
	status: TxStatus;
	settlementDateMs: number;
	createdAtMs: number;
}

export interface Transfer {
	/** transaction_id: the id of the debit transaction */
	id: string;
	businessId: string;
	reference: string;
	amount: bigint;
	transferType: 'intra' | 'inter';
	status: TransferStatus;
	remarks: string;
	sourceAccountNumber: string;
	beneficiaryAccountNumber: string;
	beneficiaryAccountName: string | null;
	bankCode: string;
	createdAtMs: number;
	updatedAtMs: number;
}

export interface BankInfo {
	name: string;
	code: string;
	cbnCode: string | null;
	updatedAtMs: number;
}

export interface ExternalAccount {
	bankCode: string;
	accountNumber: string;
	accountName: string;
}

export interface Permission {
	id: string;
	code: string;
	name: string;
	description: string;
}

export interface Role {
	id: string;
	businessId: string;
	name: string;
	description: string;
	permissionCodes: string[];
	permissionData: Array<Record<string, unknown>>;
	createdAtMs: number;
}

/** Who a member is in the business; an invitation records the same about its invitee. */
export interface Person {
	id: string;
	businessId: string;
	email: string;
	firstName: string;
	lastName: string;
	roleId: string;
}

export interface Member extends Person {
	isActive: boolean;
	lastLoginMs: number | null;
	dateJoinedMs: number;
	/** only the seeded admin has one; invited members have not set theirs yet */
	password?: string;
}

export interface Invitation extends Person {
	memberId: string;
	invitedBy: string;
	createdAtMs: number;
}

export interface Webhook {
	id: string;
	businessId: string;
	url: string;
	events: EventKind[];
	createdAtMs: number;
	updatedAtMs: number;
	/** Deliveries in a row that no attempt got through: every answer 404/410 or a refused connection. */
	deadDeliveries?: number;
	/** Set when the bank stopped delivering to this URL (registering it again turns it back on). */
	disabledAtMs?: number;
}
