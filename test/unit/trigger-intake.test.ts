import { performance } from 'node:perf_hooks';

import { recentDeliveries } from '../../nodes/BaasTrigger/recentDeliveries';
import { reportFigures } from '../engine/reliability/scale';
import { signatureOf, webhookTrigger } from './support/webhookTrigger';

/**
 * Intake cost must not grow with what the trigger remembers: delivery 4,901–5,000 (5,000 references remembered)
 * may cost at most 1.5 × delivery 1–100. Measured on the node's own webhook(), with the slice of n8n's webhook
 * context it reads, so the figure is the node's cost alone (n8n's own loading and saving of static data aside).
 */
const SECRET = 'intake-test-secret';
const DELIVERIES = 5_000;
const SLICE = 100;
const RUNS = 3;

function signedDelivery(i: number) {
	const rawBody = Buffer.from(JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: `COL-${i}`, amount: '1500.00' } }));
	return { rawBody, signature: signatureOf(rawBody, SECRET) };
}

const triggerContext = (workflowId: string) => webhookTrigger({ workflowId, credential: () => ({ webhookSecret: SECRET }) });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

test('intake stays flat: deliveries 4,901–5,000 cost at most 1.5 × deliveries 1–100 (medians of runs)', async () => {
	const deliveries = Array.from({ length: DELIVERIES }, (_, i) => signedDelivery(i));
	const early: number[] = [];
	const late: number[] = [];
	let staticBytes = 0;
	const timed = async (trigger: ReturnType<typeof triggerContext>, delivery: (typeof deliveries)[number]) => {
		const started = performance.now();
		const answer = await trigger.deliver(delivery);
		const elapsed = performance.now() - started;
		expect(answer.emitted).toBe(1);
		return elapsed;
	};
	// Run 0 warms the JIT and is not counted.
	for (let run = 0; run <= RUNS; run++) {
		// The late trigger has taken deliveries 1–4,900; the early one none. Timed alternately, side by side,
		// so the load of the machine at that moment weighs on both alike.
		const lateTrigger = triggerContext(`wf-intake-late-${run}`);
		for (const delivery of deliveries.slice(0, DELIVERIES - SLICE)) await lateTrigger.deliver(delivery);
		const earlyTrigger = triggerContext(`wf-intake-early-${run}`);
		const earlyTimes: number[] = [];
		const lateTimes: number[] = [];
		for (let i = 0; i < SLICE; i++) {
			earlyTimes.push(await timed(earlyTrigger, deliveries[i]));
			lateTimes.push(await timed(lateTrigger, deliveries[DELIVERIES - SLICE + i]));
		}
		// With 5,000 remembered, a repeat of every 10th event is dropped.
		for (let i = 0; i < DELIVERIES; i += 10) expect((await lateTrigger.deliver(deliveries[i])).emitted).toBe(0);
		staticBytes = JSON.stringify(lateTrigger.staticData).length;
		expect(staticBytes).toBeLessThan(DELIVERIES * 22 + 200);
		recentDeliveries.forget();
		if (run === 0) continue;
		// Per slice, the median delivery: one pause of the garbage collector does not move it.
		early.push(median(earlyTimes));
		late.push(median(lateTimes));
	}
	const ratio = median(late) / median(early);
	reportFigures('trigger-intake', {
		deliveries: DELIVERIES,
		runs: RUNS,
		first100_us: (median(early) * 1000).toFixed(1),
		last100_us: (median(late) * 1000).toFixed(1),
		ratio: ratio.toFixed(2),
		static_data_bytes: staticBytes,
	});
	expect(ratio).toBeLessThanOrEqual(1.5);
});
