/** Records -> the contract's JSON shapes. Every list item also carries `id` (and `created_at`) for stable cursors. */
import { formatAmount, formatBalance } from '../data/money';
import type { Account, BankInfo, Member, Permission, Role, Settlement, Transaction, Transfer } from '../state/records';
import { iso } from '../data/time';

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

export function txApi(t: Transaction) {
	return {
		id: t.id,
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

export function txWeb(t: Transaction) {
	return {
		id: t.id,
		reference_number: t.reference,
		account_number: t.accountNumber,
		amount: formatAmount(t.amount),
		transaction_type: t.type,
		status: t.status,
		narration: t.narration,
		created_at: iso(t.createdAtMs),
	};
}

export function settlement(s: Settlement) {
	return {
		id: s.id,
		reference: s.reference,
		account_number: s.accountNumber,
		amount: formatAmount(s.amount),
		settlement_date: iso(s.settlementDateMs),
		status: s.status,
		created_at: iso(s.createdAtMs),
	};
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
