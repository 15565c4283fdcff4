import { generate } from '../test/support/pollFuzz/history';
import { runHistory } from '../test/support/pollFuzz/driver';
import { pollOnce } from '../nodes/BaasPollTrigger/poll';
async function main() {
	const seed = Number(process.argv[2]);
	const h = generate(seed, 'documented');
	console.log(JSON.stringify({ cap: h.pageCap, rpp: h.settings.requestBudget, events: h.settings.events, order: h.order, quota: h.quotaPerMinute }));
	let n = 0;
	const out = await runHistory(h, (line) => console.log(line), async (input) => {
		const request = (async (...args: Parameters<typeof input.request>) => {
			const [, op, params] = args as unknown as [unknown, string, { filters?: { status?: string; transaction_type?: string }; page?: number; page_size?: number; reference_number?: string }];
			try {
				const r = await input.request(...args);
				const list = Array.isArray(r) ? (r as Array<{ reference_number?: string } | null>).map((x) => x?.reference_number ?? '?').join(',') : JSON.stringify((r as { status?: string })?.status);
				console.log(`   ${op} ${params.filters?.transaction_type ?? ''}${params.filters?.status ? '/' + params.filters.status : ''} p${params.page}x${params.page_size} ${params.reference_number ?? ''} -> ${list}`);
				return r;
			} catch (e) {
				console.log(`   ${op} -> ERR ${(e as Error).message.slice(0, 60)}`);
				throw e;
			}
		}) as typeof input.request;
		n++;
		return await pollOnce({ ...input, request });
	});
	console.log(JSON.stringify(out.violations ?? out, null, 0).slice(0, 2000));
}
void main();
