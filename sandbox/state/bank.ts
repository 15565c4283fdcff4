/** The bank's state and the operations that change it. No HTTP here; errors are ApiErrors with contract codes. */
import { ApiError } from '../http/envelope';
import { buildState, type BankState, type BuildConfig } from '../data/seed';
import type { MalformedKind } from '../types';
import { MALFORMED_KINDS } from '../types';
import type { Account, AccountStatus, BankInfo, Settlement, Transaction, Transfer } from './records';
import { runtimeId, runtimeReference } from './ids';
import type { Ledger } from './listing';
import { insertAscending } from './sorted';
import { creditCollection } from './collections';
import { checkTransfer } from './transferChecks';

export interface TransferInput {
	reference_number: string;
	transfer_type: 'intra' | 'inter';
	amount: bigint;
	source_account_number: string;
	beneficiary_account_number: string;
	beneficiary_account_name?: string | null;
	bank_code?: string | null;
	narration: string;
}

export interface CollectionInput {
	accountNumber: string;
	amount: bigint;
	reference?: string;
	narration?: string;
	senderName?: string;
	channel?: string;
	/** Default success; a pending one waits for finishCollection (sandbox/state/collections.ts). */
	status?: 'success' | 'pending' | 'failed';
	/** false: no settlement is made (a day plan makes its own, sandbox/state/dayPlan.ts). */
	settle?: boolean;
}

function txKey(businessId: string, reference: string): string {
	return `${businessId}\u0000${reference}`;
}

/** Gives Bank the fields of BankState (listed there only); reset() fills them from buildState. */
const SeededState = class {} as new () => BankState;

export class Bank extends SeededState {
	readonly config: BuildConfig;
	private txIndex = new Map<string, Transaction>();
	/** The lists' two orders (sandbox/state/listing.ts): `transactions` ascending by created_at, and as written. */
	transactionLedger: Ledger<Transaction> = { ascending: [], written: [] };
	settlementLedger: Ledger<Settlement> = { ascending: [], written: [] };
	/** reference -> how the lists serve that transaction and its settlement (a corrupt row keeps its slot). */
	malformed = new Map<string, MalformedKind>();

	constructor(config: BuildConfig) {
		super();
		this.config = config;
		this.reset();
	}

	/** Back to the seeded state, in place (holders of this object see the reset). */
	reset(): void {
		Object.assign(this, buildState(this.config));
		this.txIndex = new Map();
		for (const tx of this.transactions) this.txIndex.set(txKey(tx.businessId, tx.reference), tx);
		// The generated history was written in the order it happened.
		this.transactionLedger = { ascending: this.transactions, written: [...this.transactions] };
		this.settlementLedger = { ascending: this.settlements, written: [...this.settlements] };
		this.malformed = new Map();
	}

	/** Serves the transaction `reference` (and its settlement) as `as` in every list, in its own slot. */
	markMalformed(reference: string, as: MalformedKind): void {
		if (!MALFORMED_KINDS.includes(as)) throw new ApiError('99', `as: must be one of ${MALFORMED_KINDS.join(', ')}`);
		if (!this.transactions.some((t) => t.reference === reference)) throw new ApiError('99', `reference: no transaction ${reference}`);
		this.malformed.set(reference, as);
	}

	newId(): string {
		return runtimeId();
	}

	businessAccounts(businessId: string): Account[] {
		return [...this.accounts.values()].filter((a) => a.businessId === businessId);
	}

	ownedAccount(businessId: string, accountNumber: string): Account | undefined {
		const account = this.accounts.get(accountNumber);
		return account && account.businessId === businessId ? account : undefined;
	}

	findTransaction(businessId: string, reference: string): Transaction | undefined {
		return this.txIndex.get(txKey(businessId, reference));
	}

	findTransfer(businessId: string, reference: string): Transfer | undefined {
		return this.transfers.get(txKey(businessId, reference));
	}

	bankByCode(code: string): BankInfo | undefined {
		return this.banks.find((b) => b.code === code);
	}

	addTransaction(tx: Transaction): void {
		insertAscending(this.transactions, tx);
		this.transactionLedger.written.push(tx);
		this.txIndex.set(txKey(tx.businessId, tx.reference), tx);
	}

	private uniqueReference(businessId: string, prefix: string, nowMs: number): string {
		for (;;) {
			const ref = runtimeReference(prefix, nowMs);
			if (!this.findTransaction(businessId, ref) && !this.findTransfer(businessId, ref)) return ref;
		}
	}

	/** An inbound payment: a credit transaction; when successful, the credit and (unless `settle: false`) its settlement. */
	collect(input: CollectionInput, nowMs: number): { transaction: Transaction; settlement?: Settlement } {
		const account = this.accounts.get(input.accountNumber);
		if (!account) throw new ApiError('44', `account_number: account ${input.accountNumber} does not exist`, 400);
		if (account.status !== 'active') {
			throw new ApiError('57', `account_number: account ${input.accountNumber} is ${account.status} and cannot receive funds`, 400);
		}
		if (input.amount <= 0n) throw new ApiError('99', 'amount: must be greater than 0');
		const reference = input.reference ?? this.uniqueReference(account.businessId, 'COL', nowMs);
		if (this.findTransaction(account.businessId, reference) || this.findTransfer(account.businessId, reference)) {
			throw new ApiError('26', `reference: ${reference} has already been used`, 400);
		}
		const transaction: Transaction = {
			id: this.newId(),
			businessId: account.businessId,
			reference,
			accountNumber: account.accountNumber,
			accountName: account.accountName,
			amount: input.amount,
			type: 'credit',
			category: 'collection',
			status: input.status ?? 'success',
			channel: input.channel ?? 'nip',
			narration: input.narration ?? `Payment from ${input.senderName ?? 'a customer'}`,
			createdAtMs: nowMs,
		};
		this.addTransaction(transaction);
		if (transaction.status !== 'success') return { transaction };
		return { transaction, settlement: creditCollection(this, transaction, nowMs, input.settle !== false) };
	}

	createCustomerAccount(
		businessId: string,
		input: { account_name: string; email: string; phone: string; bvn?: string | null; nin?: string | null },
		nowMs: number,
	): Account {
		for (const id of [input.bvn, input.nin]) {
			if (id && this.failingIdentities.has(id)) {
				throw new ApiError('83', 'Identity verification failed: the BVN/NIN could not be verified');
			}
		}
		const pool = this.businessAccounts(businessId).find((a) => a.accountType === 'pool');
		let accountNumber: string;
		do {
			accountNumber = `08232${String(this.nextCustomerSeq++).padStart(5, '0')}`;
		} while (this.accounts.has(accountNumber));
		const account: Account = {
			id: this.newId(),
			businessId,
			accountNumber,
			accountName: input.account_name,
			accountType: 'virtual',
			accountClass: 'secondary',
			status: 'active',
			balance: 0n,
			lastBalanceUpdateMs: nowMs,
			poolAccountNumber: pool?.accountNumber ?? null,
			createdAtMs: nowMs,
			customer: {
				email: input.email,
				phone: input.phone,
				...(input.bvn ? { bvn: input.bvn } : {}),
				...(input.nin ? { nin: input.nin } : {}),
			},
		};
		this.accounts.set(accountNumber, account);
		return account;
	}

	/** The contract's state table: only active <-> inactive; blocked/closed (and pending) refuse with 45. */
	updateAccountStatus(businessId: string, accountNumber: string, status: 'active' | 'inactive'): Account {
		const account = this.ownedAccount(businessId, accountNumber);
		if (!account) throw new ApiError('44', `Account not found: ${accountNumber}`);
		const frozen: AccountStatus[] = ['blocked', 'closed', 'pending'];
		if (frozen.includes(account.status)) {
			throw new ApiError('45', `Invalid status transition: account ${accountNumber} is ${account.status}; its status cannot be changed`);
		}
		account.status = status;
		return account;
	}

	/** Validates, debits and records a transfer. Intra completes here; inter stays pending for finalizeTransfer. */
	initiateTransfer(businessId: string, input: TransferInput, nowMs: number): Transfer {
		const ref = input.reference_number;
		const { source, beneficiary, bankCode } = checkTransfer(this, businessId, input);

		source.balance -= input.amount;
		source.lastBalanceUpdateMs = nowMs;
		const transfer: Transfer = {
			id: this.newId(),
			businessId,
			reference: ref,
			amount: input.amount,
			transferType: input.transfer_type,
			status: input.transfer_type === 'intra' ? 'successful' : 'pending',
			remarks: input.narration,
			sourceAccountNumber: source.accountNumber,
			beneficiaryAccountNumber: input.beneficiary_account_number,
			beneficiaryAccountName: input.beneficiary_account_name ?? beneficiary?.accountName ?? null,
			bankCode,
			createdAtMs: nowMs,
			updatedAtMs: nowMs,
		};
		this.transfers.set(txKey(businessId, ref), transfer);
		this.addTransaction({
			id: transfer.id,
			businessId,
			reference: ref,
			accountNumber: source.accountNumber,
			accountName: source.accountName,
			amount: input.amount,
			type: 'debit',
			category: 'transfer',
			status: input.transfer_type === 'intra' ? 'success' : 'pending',
			channel: input.transfer_type === 'intra' ? 'intra' : 'nip',
			narration: input.narration,
			createdAtMs: nowMs,
		});
		if (beneficiary) {
			// The beneficiary's side of an intra-bank transfer: a credit in its own business's ledger.
			beneficiary.balance += input.amount;
			beneficiary.lastBalanceUpdateMs = nowMs;
			this.addTransaction({
				id: this.newId(),
				businessId: beneficiary.businessId,
				reference: `${ref}-CR`,
				accountNumber: beneficiary.accountNumber,
				accountName: beneficiary.accountName,
				amount: input.amount,
				type: 'credit',
				category: 'transfer',
				status: 'success',
				channel: 'intra',
				narration: input.narration,
				createdAtMs: nowMs,
			});
		}
		return transfer;
	}

	/** Ends a pending inter-bank transfer: failing beneficiaries fail and the debit is reversed. */
	finalizeTransfer(transfer: Transfer, nowMs: number): Transfer {
		if (transfer.status !== 'pending') return transfer;
		const debit = this.findTransaction(transfer.businessId, transfer.reference);
		const failed = this.failingBeneficiaries.has(transfer.beneficiaryAccountNumber);
		transfer.status = failed ? 'failed' : 'successful';
		transfer.updatedAtMs = nowMs;
		if (debit) debit.status = failed ? 'failed' : 'success';
		if (failed) {
			const source = this.accounts.get(transfer.sourceAccountNumber);
			if (source) {
				source.balance += transfer.amount;
				source.lastBalanceUpdateMs = nowMs;
			}
		}
		return transfer;
	}

	pendingTransfers(): Transfer[] {
		return [...this.transfers.values()].filter((t) => t.status === 'pending');
	}
}
