/**
 * Records -> the contract's JSON shapes. Transaction and settlement items carry exactly the documented fields in
 * the documented list shape, plus `id` (settlements also `created_at`) in the cursor shape; account list items
 * always carry `id` and `created_at` (sandbox/README.md, "List shapes", says why).
 */
import { formatAmount, formatBalance } from '../data/money';
import type { Account, BankInfo, Member, Permission, Role, Settlement, Transaction, Transfer } from '../state/records';
import { iso } from '../data/time';
import type { ListShape, MalformedKind } from '../types';

/** `{ id }` in the cursor shape, nothing in the documented one. */
const idIn = (shape: ListShape, id: string) => (shape === 'cursor' ? { id } : {});

export function accountBase(a: Account) {
	return {
		id: a.id,
		account_number: a.accountNumber,
		account_name: a.accountName,
		account_type: a.accountType,
		status: a.status,
		balance: formatBalance(a.balance),
		last_balance_update: iso(a.lastBalanceUpdateMs),
	};
}

/** fetch_customer_accounts item. is_available: the account can send and receive funds (status active). */
export function accountListItem(a: Account) {
	return {
		...accountBase(a),
		is_available: a.status === 'active',
		pool_account_number: a.poolAccountNumber,
		created_at: iso(a.createdAtMs),
	};
}

export function txApi(t: Transaction, shape: ListShape) {
	return {
		...idIn(shape, t.id),
		reference_number: t.reference,
		account_number: t.accountNumber,
		account_name: t.accountName,
		amount: formatAmount(t.amount),
		transaction_type: t.type,
		transaction_category: t.category,
		status: t.status,
		channel: t.channel,
		remarks: t.narration,
		created_at: iso(t.createdAtMs),
	};
}

export function txWeb(t: Transaction, shape: ListShape) {
	return {
		...idIn(shape, t.id),
		reference_number: t.reference,
		account_number: t.accountNumber,
		amount: formatAmount(t.amount),
		transaction_type: t.type,
		status: t.status,
		narration: t.narration,
		created_at: iso(t.createdAtMs),
	};
}

export function settlement(s: Settlement, shape: ListShape) {
	return {
		...idIn(shape, s.id),
		reference: s.reference,
		account_number: s.accountNumber,
		amount: formatAmount(s.amount),
		settlement_date: iso(s.settlementDateMs),
		status: s.status,
		...(shape === 'cursor' ? { created_at: iso(s.createdAtMs) } : {}),
	};
}

const UNREADABLE_DATE = 'not a date';

/**
 * A list item as a corrupt row of a real bank may come out: null, a string, or an object whose reference or
 * date is missing or unreadable (both the transaction's and the settlement's names of those fields).
 */
export function corrupted(item: Record<string, unknown>, as: MalformedKind): unknown {
	const { reference_number, reference, created_at, settlement_date, ...rest } = item;
	const refs = { reference_number, reference };
	const dates = { created_at, settlement_date };
	const present = (fields: Record<string, unknown>, value?: string) =>
		Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => [k, value ?? v]));
	switch (as) {
		case 'null':
			return null;
		case 'notAnObject':
			return 'unreadable record';
		case 'missingReference':
			return { ...rest, ...present(dates) };
		case 'missingCreatedAt':
			return { ...present(refs), ...rest };
		case 'invalidCreatedAt':
			return { ...present(refs), ...rest, ...present(dates, UNREADABLE_DATE) };
	}
}

export function transfer(t: Transfer) {
	return {
		reference_number: t.reference,
		transaction_id: t.id,
		amount: formatAmount(t.amount),
		transfer_type: t.transferType,
		status: t.status,
		remarks: t.remarks,
		created_at: iso(t.createdAtMs),
		updated_at: iso(t.updatedAtMs),
	};
}

export function bankInfo(b: BankInfo) {
	return { name: b.name, code: b.code, cbn_code: b.cbnCode, updated_at: iso(b.updatedAtMs) };
}

export function member(m: Member) {
	return {
		id: m.id,
		email: m.email,
		first_name: m.firstName,
		last_name: m.lastName,
		user_role_id: m.roleId,
		is_active: m.isActive,
		last_login: m.lastLoginMs === null ? null : iso(m.lastLoginMs),
		date_joined: iso(m.dateJoinedMs),
	};
}

export function permission(p: Permission) {
	return { id: p.id, code: p.code, name: p.name, description: p.description };
}

export function role(r: Role, permissions: Permission[]) {
	const byCode = new Map(permissions.map((p) => [p.code, p]));
	return {
		id: r.id,
		name: r.name,
		description: r.description,
		permissions: r.permissionCodes.map((code) => ({ code, name: byCode.get(code)?.name ?? code })),
		permission_data: r.permissionData,
		created_at: iso(r.createdAtMs),
	};
}
