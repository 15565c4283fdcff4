import { generate } from '../test/support/pollFuzz/history';
import { runHistory } from '../test/support/pollFuzz/driver';
async function main() {
	const from = Number(process.argv[2] ?? 1), n = Number(process.argv[3] ?? 1000);
	const rows: string[] = [];
	for (let seed = from; seed < from + n; seed++) {
		const h = generate(seed, 'documented');
		const out = await runHistory(h);
		if (out.violations.length === 0) continue;
		const rules = [...new Set(out.violations.map((v) => v.rule))].join('|');
		rows.push(`${seed}\t${rules}\tcap=${h.pageCap ?? '-'}\trpp=${h.settings.requestBudget}\tev=${h.settings.events.map((e) => e[0] + e.split('_')[1][0]).join('+')}\torder=${h.order}\tquota=${h.quotaPerMinute ?? '-'}\tstart=${h.settings.startFromMs !== undefined}\tacct=${h.settings.accountNumber !== undefined}\tdrain=${out.drain.owed}/${out.drain.left}`);
	}
	console.log(rows.join('\n'));
}
void main();
