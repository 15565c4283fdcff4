/**
 * Settlements against the collections of one day: state in, decision out, no I/O. Rules (docs/nodes/baas-dashboard.md,
 * "Reconciliation → Check Settlements", states them for users):
 * - a settlement belongs to the collection with its reference (case and spaces ignored); only settlements whose
 *   status is success count as settled money;
 * - per successful collection of the day: none → `not settled yet` (with the hours since it was collected); one of
 *   the same amount, or several summing to it → `settled`; one of another amount → `settled with another amount`;
 *   several not summing to it → `settled twice`;
 * - a settlement dated on the day whose reference is no collection of the days read around it →
 *   `settlement without a collection` (each such settlement is reported once: on the check of its own day);
 * - then totals per account and for the day.
 */
import type { IDataObject } from 'n8n-workflow';

import { matchKey } from './matching';
import { koboForPeople, koboToAmount } from '../../amounts';

export const SETTLEMENT_OUTCOMES = ['settled', 'not settled yet', 'settled with another amount', 'settled twice', 'settlement without a collection'] as const;
export type SettlementOutcome = (typeof SETTLEMENT_OUTCOMES)[number];

export interface DayCollection {
	reference: string;
	account: string;
	kobo: bigint;
	createdAt: string;
}

export interface SettlementEntry {
	reference: string;
	account: string;
	kobo: bigint;
	status: string;
	/** ISO 8601, as the bank gives settlement_date. */
	settledAt: string;
}

export interface SettlementCheckInput {
	day: string;
	/** The successful collections of the day. */
	collections: DayCollection[];
	/** References of collections on the days read around it (their settlements are theirs, not orphans). */
	otherReferences: Set<string>;
	settlements: SettlementEntry[];
	nowMs: number;
}

const hoursBetween = (fromIso: string, toMs: number) => Math.max(0, Math.round((toMs - Date.parse(fromIso)) / 360_000) / 10);
const field = (outcome: string) => outcome.replace(/ /g, '_');

function outcomeOf(collection: DayCollection, settled: SettlementEntry[]): { outcome: SettlementOutcome; note: string } {
	const total = settled.reduce((sum, s) => sum + s.kobo, 0n);
	if (settled.length === 0) return { outcome: 'not settled yet', note: 'no settlement yet' };
	const elsewhere = settled.filter((s) => s.account !== collection.account).map((s) => s.account);
	const where = elsewhere.length > 0 ? `; settled to account ${[...new Set(elsewhere)].join(', ')}, not ${collection.account}` : '';
	if (total === collection.kobo) return { outcome: 'settled', note: `${settled.length > 1 ? `settled in ${settled.length} parts` : 'settled in full'}${where}` };
	if (settled.length === 1) {
		const difference = total - collection.kobo;
		return { outcome: 'settled with another amount', note: `settled ${koboForPeople(difference)} ${difference < 0n ? 'less' : 'more'} than collected${where}` };
	}
	return { outcome: 'settled twice', note: `${settled.length} settlements totalling ${koboForPeople(total)} for ${koboForPeople(collection.kobo)} collected${where}` };
}

interface Totals {
	collected: bigint;
	settled: bigint;
	unsettled: bigint;
	collections: number;
	counts: Map<SettlementOutcome, number>;
}

const emptyTotals = (): Totals => ({ collected: 0n, settled: 0n, unsettled: 0n, collections: 0, counts: new Map() });

function totalsItem(day: string, account: string, totals: Totals): IDataObject {
	return {
		settlement_outcome: 'totals',
		date: day,
		account_number: account,
		collections: totals.collections,
		collected_amount: koboToAmount(totals.collected),
		settled_amount: koboToAmount(totals.settled),
		unsettled_amount: koboToAmount(totals.unsettled),
		...Object.fromEntries(SETTLEMENT_OUTCOMES.map((outcome) => [`count_${field(outcome)}`, totals.counts.get(outcome) ?? 0])),
	};
}

/** One item per successful collection of the day, one per settlement without a collection, then the totals. */
export function checkSettlements(input: SettlementCheckInput): IDataObject[] {
	const byReference = new Map<string, SettlementEntry[]>();
	for (const settlement of input.settlements) {
		if (settlement.status !== 'success') continue;
		const key = matchKey(settlement.reference);
		const list = byReference.get(key);
		if (list) list.push(settlement);
		else byReference.set(key, [settlement]);
	}
	const totals = new Map<string, Totals>();
	const add = (account: string, outcome: SettlementOutcome, collected: bigint, settled: bigint, unsettled: bigint) => {
		for (const key of [account, '']) {
			const entry = totals.get(key) ?? emptyTotals();
			totals.set(key, entry);
			entry.collected += collected;
			entry.settled += settled;
			entry.unsettled += unsettled;
			if (collected > 0n) entry.collections++;
			entry.counts.set(outcome, (entry.counts.get(outcome) ?? 0) + 1);
		}
	};
	const items: IDataObject[] = [];
	const ours = new Set<string>();
	for (const collection of input.collections) {
		const key = matchKey(collection.reference);
		ours.add(key);
		const settled = byReference.get(key) ?? [];
		const { outcome, note } = outcomeOf(collection, settled);
		const settledKobo = settled.reduce((sum, s) => sum + s.kobo, 0n);
		add(collection.account, outcome, collection.kobo, settledKobo, outcome === 'not settled yet' ? collection.kobo : 0n);
		items.push({
			settlement_outcome: outcome,
			reference: collection.reference,
			account_number: collection.account,
			collected_amount: koboToAmount(collection.kobo),
			settled_amount: koboToAmount(settledKobo),
			difference: koboToAmount(settledKobo - collection.kobo),
			collected_at: collection.createdAt,
			settlement_dates: settled.map((s) => s.settledAt).join(', '),
			...(outcome === 'not settled yet' ? { hours_unsettled: hoursBetween(collection.createdAt, input.nowMs) } : {}),
			settlement_note: note,
		});
	}
	for (const settlement of input.settlements) {
		const key = matchKey(settlement.reference);
		if (settlement.status !== 'success' || ours.has(key) || input.otherReferences.has(key) || !settlement.settledAt.startsWith(input.day)) continue;
		add(settlement.account, 'settlement without a collection', 0n, settlement.kobo, 0n);
		items.push({
			settlement_outcome: 'settlement without a collection',
			reference: settlement.reference,
			account_number: settlement.account,
			collected_amount: '0.00',
			settled_amount: koboToAmount(settlement.kobo),
			difference: koboToAmount(settlement.kobo),
			settlement_dates: settlement.settledAt,
			settlement_note: `${koboForPeople(settlement.kobo)} settled with no collection of that reference`,
		});
	}
	const accounts = [...totals.keys()].filter((account) => account !== '').sort();
	return [...items, ...accounts.map((account) => totalsItem(input.day, account, totals.get(account)!)), totalsItem(input.day, 'all', totals.get('') ?? emptyTotals())];
}
