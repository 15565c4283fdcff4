/**
 * Builds the seeded state: fixed fixtures plus a generated transaction history (deterministic per seed).
 * The generator works in one ascending pass so 100,000 transactions take well under a second.
 */
import {
	BANKS,
	BANKS_UPDATED_AT,
	BUSINESS_ACCOUNTS,
	CREDENTIALS,
	FAILING_BENEFICIARIES,
	FAILING_IDENTITIES,
	FIRST_NAMES,
	FOREIGN_ACCOUNTS,
	HISTORY_DAYS,
	LAST_NAMES,
	MEMBERS,
	OTHER_BUSINESS_NAME,
	OWN_BANK_CODE,
	PERMISSIONS,
	ROLES,
	type AccountFixture,
} from './fixtures';
import { Prng } from './prng';
import { compareNewestFirst, type Stamped } from '../state/sorted';
import type {
	Account,
	BankInfo,
	Business,
	ExternalAccount,
	Invitation,
	Member,
	Permission,
	Role,
	Settlement,
	Transaction,
	Transfer,
	Webhook,
} from '../state/records';

export interface BuildConfig {
	transactions: number;
	seed: number;
	/** The generated history ends just before this instant (ms). */
	historyEndMs: number;
}

export interface BankState {
	main: Business;
	businesses: Map<string, Business>;
	accounts: Map<string, Account>;
	transactions: Transaction[];
	settlements: Settlement[];
	transfers: Map<string, Transfer>;
	banks: BankInfo[];
	externalAccounts: ExternalAccount[];
	permissions: Permission[];
	roles: Map<string, Role>;
	members: Map<string, Member>;
	invitations: Invitation[];
	webhooks: Webhook[];
	failingBeneficiaries: Set<string>;
	failingIdentities: Set<string>;
	nextCustomerSeq: number;
}

/** Fixture ids come from a PRNG with a fixed seed, so member/role/account ids are the same whatever --seed says. */
const FIXTURE_SEED = 823;

function makeAccount(f: AccountFixture, businessId: string, ids: Prng, pool: string | null): Account {
	const created = Date.parse(f.created);
	return {
		id: ids.uuid(),
		businessId,
		accountNumber: f.number,
		accountName: f.name,
		accountType: f.type,
		accountClass: f.type === 'virtual' ? 'secondary' : 'primary',
		status: f.status,
		balance: f.opening,
		lastBalanceUpdateMs: created,
		poolAccountNumber: f.pooled ? pool : null,
		createdAtMs: created,
	};
}

function buildExternalAccounts(ids: Prng): ExternalAccount[] {
	const out: ExternalAccount[] = [
		{ bankCode: '000013', accountNumber: FAILING_BENEFICIARIES[0], accountName: 'Failing Beneficiary One' },
		{ bankCode: '000014', accountNumber: FAILING_BENEFICIARIES[1], accountName: 'Failing Beneficiary Two' },
	];
	const others = BANKS.filter((b) => b.code !== OWN_BANK_CODE);
	for (let i = 0; i < others.length; i++) {
		for (let j = 0; j < 3; j++) {
			// Leading digit 1..8 keeps these clear of the sandbox's own 0823... numbers and the 999... failing ones.
			const accountNumber = `${1 + ((i + j) % 8)}${ids.digits(9)}`;
			out.push({
				bankCode: others[i].code,
				accountNumber,
				accountName: `${ids.pick(FIRST_NAMES)} ${ids.pick(LAST_NAMES)}`,
			});
		}
	}
	return out;
}

function buildTeam(businessId: string, ids: Prng) {
	const permissions: Permission[] = PERMISSIONS.map((p) => ({ id: ids.uuid(), ...p }));
	const roles = new Map<string, Role>();
	const roleIdByName = new Map<string, string>();
	for (const r of ROLES) {
		const role: Role = {
			id: ids.uuid(),
			businessId,
			name: r.name,
			description: r.description,
			permissionCodes: [...r.codes],
			permissionData: [],
			createdAtMs: Date.parse('2025-01-15T08:00:00.000Z'),
		};
		roles.set(role.id, role);
		roleIdByName.set(r.name, role.id);
	}
	const members = new Map<string, Member>();
	for (const m of MEMBERS) {
		const member: Member = {
			id: ids.uuid(),
			businessId,
			email: m.email,
			firstName: m.first,
			lastName: m.last,
			roleId: roleIdByName.get(m.role) as string,
			isActive: m.active,
			lastLoginMs: m.lastLogin ? Date.parse(m.lastLogin) : null,
			dateJoinedMs: Date.parse(m.joined),
			...(m.email === CREDENTIALS.dashboardEmail ? { password: CREDENTIALS.dashboardPassword } : {}),
		};
		members.set(member.id, member);
	}
	return { permissions, roles, members };
}

const CREDIT_NARRATIONS = ['Payment from {name}', 'Invoice settlement {name}', 'POS collection', 'Transfer from {name}', 'Subscription fee {name}'];
const DEBIT_NARRATIONS = ['Vendor payout {name}', 'Salary payment {name}', 'Refund to {name}', 'Supplier payment', 'Logistics fee {name}'];

/**
 * One ascending pass: timestamps grow by random steps and sometimes repeat (ties are wanted for paging tests); the
 * whole history is then moved so that it ends within the second before `historyEndMs`.
 */
function generateHistory(state: BankState, count: number, seed: number, historyEndMs: number): void {
	const rnd = new Prng(seed);
	const businessId = state.main.id;
	const accounts = [...state.accounts.values()].filter((a) => a.businessId === businessId);
	const byNumber = new Map(accounts.map((a) => [a.accountNumber, a]));
	const pool = accounts.find((a) => a.accountType === 'pool') as Account;
	const current = accounts.find((a) => a.accountType === 'current') as Account;
	const virtuals = accounts.filter((a) => a.accountType === 'virtual' && a.status === 'active');
	const dormant = accounts.filter((a) => a.status === 'inactive' || a.status === 'blocked');
	// No generated debit takes an account below its opening balance, so the pool stays large whatever N is.
	const floor = new Map(accounts.map((a) => [a.accountNumber, a.balance]));
	const startSec = Math.floor((historyEndMs - HISTORY_DAYS * 86_400_000) / 1000);
	const endSec = Math.floor(historyEndMs / 1000) - 1;
	const meanStep = Math.max(1, Math.floor((endSec - startSec) / Math.max(1, count)));
	// Dormant accounts only got money early on, before they were blocked, closed or made inactive.
	const dormantUntil = startSec + Math.floor((endSec - startSec) * 0.3);
	let sec = startSec;
	const txs: Transaction[] = new Array(count);
	const settlements: Settlement[] = [];
	const settlementOf = new Map<Settlement, Transaction>();
	const updated = new Set<Account>();
	for (let i = 0; i < count; i++) {
		if (i === 0 || !rnd.chance(0.15)) sec = Math.min(endSec, sec + 1 + Math.floor(rnd.next() * (2 * meanStep - 1)));
		const createdAtMs = sec * 1000;
		const isCredit = rnd.chance(0.55);
		let account: Account;
		const where = rnd.next();
		if (isCredit) {
			if (sec < dormantUntil && dormant.length > 0 && where < 0.05) account = rnd.pick(dormant);
			else account = where < 0.35 ? pool : where < 0.5 ? current : rnd.pick(virtuals);
		} else {
			account = where < 0.65 ? pool : current;
		}
		const wholeNaira = rnd.chance(0.6);
		// kobo: credits 500.00 .. 250,000.00 NGN, debits 500.00 .. 100,000.00 NGN
		let amount = BigInt(rnd.int(50_000, isCredit ? 25_000_000 : 10_000_000));
		if (wholeNaira) amount -= amount % 100n;
		const name = `${rnd.pick(FIRST_NAMES)} ${rnd.pick(LAST_NAMES)}`;
		const narration = rnd.pick(isCredit ? CREDIT_NARRATIONS : DEBIT_NARRATIONS).replace('{name}', name);
		const channel = rnd.chance(isCredit ? 0.7 : 0.75) ? 'nip' : 'intra';
		const roll = rnd.next();
		let status: Transaction['status'];
		if (isCredit) {
			status = roll < 0.93 ? 'success' : roll < 0.97 ? 'failed' : 'pending';
		} else {
			status = roll < 0.96 && account.balance - amount >= (floor.get(account.accountNumber) ?? 0n) ? 'success' : 'failed';
		}
		const day = new Date(createdAtMs).toISOString().slice(0, 10).replace(/-/g, '');
		const tx: Transaction = {
			id: rnd.uuid(),
			businessId,
			reference: `${isCredit ? 'COL' : 'TRF'}-${day}-${String(i + 1).padStart(7, '0')}`,
			accountNumber: account.accountNumber,
			accountName: account.accountName,
			amount,
			type: isCredit ? 'credit' : 'debit',
			category: isCredit ? 'collection' : 'transfer',
			status,
			channel,
			narration,
			createdAtMs,
		};
		txs[i] = tx;
		if (status === 'success') {
			const acc = byNumber.get(account.accountNumber) as Account;
			acc.balance += isCredit ? amount : -amount;
			acc.lastBalanceUpdateMs = createdAtMs;
			updated.add(acc);
			if (isCredit) {
				const settlement: Settlement = {
					id: rnd.uuid(),
					businessId,
					reference: tx.reference,
					accountNumber: tx.accountNumber,
					amount,
					status: 'success',
					settlementDateMs: createdAtMs,
					createdAtMs,
				};
				settlements.push(settlement);
				settlementOf.set(settlement, tx);
			}
		}
	}
	// Ties make the steps fall short of the span; moving the whole history forward makes it end in its last day.
	const shiftMs = count > 0 ? (endSec - sec) * 1000 : 0;
	for (const tx of txs) {
		tx.createdAtMs += shiftMs;
		const day = new Date(tx.createdAtMs).toISOString().slice(0, 10).replace(/-/g, '');
		tx.reference = tx.reference.replace(/-\d{8}-/, `-${day}-`);
	}
	for (const settlement of settlements) {
		settlement.createdAtMs += shiftMs;
		settlement.settlementDateMs += shiftMs;
		settlement.reference = (settlementOf.get(settlement) as Transaction).reference;
	}
	for (const acc of updated) acc.lastBalanceUpdateMs += shiftMs;
	// Ties on created_at are ordered by id; one sort per list puts them in (created_at, id) order.
	const ascending = (a: Stamped, b: Stamped) => compareNewestFirst(b, a);
	state.transactions = txs.sort(ascending);
	state.settlements = settlements.sort(ascending);
}

export function buildState(config: BuildConfig): BankState {
	const ids = new Prng(FIXTURE_SEED);
	const main: Business = {
		id: ids.uuid(),
		name: CREDENTIALS.businessName,
		username: CREDENTIALS.username,
		active: true,
		clientId: CREDENTIALS.clientId,
		clientSecret: CREDENTIALS.clientSecret,
		webhookSecret: CREDENTIALS.webhookSecret,
	};
	const other: Business = {
		id: ids.uuid(),
		name: OTHER_BUSINESS_NAME,
		username: 'northwind_traders',
		active: true,
		webhookSecret: 'northwind_webhook_secret',
	};
	const accounts = new Map<string, Account>();
	const pool = BUSINESS_ACCOUNTS.find((a) => a.type === 'pool')?.number ?? null;
	for (const f of BUSINESS_ACCOUNTS) accounts.set(f.number, makeAccount(f, main.id, ids, pool));
	for (const f of FOREIGN_ACCOUNTS) accounts.set(f.number, makeAccount(f, other.id, ids, null));
	const banks: BankInfo[] = BANKS.map((b) => ({ ...b, updatedAtMs: Date.parse(BANKS_UPDATED_AT) }));
	const externalAccounts = buildExternalAccounts(ids);
	const team = buildTeam(main.id, ids);
	const state: BankState = {
		main,
		businesses: new Map([
			[main.id, main],
			[other.id, other],
		]),
		accounts,
		transactions: [],
		settlements: [],
		transfers: new Map(),
		banks,
		externalAccounts,
		...team,
		invitations: [],
		webhooks: [],
		failingBeneficiaries: new Set(FAILING_BENEFICIARIES),
		failingIdentities: new Set(FAILING_IDENTITIES),
		nextCustomerSeq: 1,
	};
	generateHistory(state, config.transactions, config.seed, config.historyEndMs);
	return state;
}
