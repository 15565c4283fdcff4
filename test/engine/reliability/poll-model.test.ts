/**
 * Randomized model checking of the Poll Trigger, long form (issue 26): many longer histories with larger bursts
 * in npm run test:reliability (BAAS_RELIABILITY=full), a few more than the short form inside npm test. Seeds
 * start where the short form's end, so the two never check the same history. Replay one: BAAS_POLL_MODEL_SEED.
 */
import { modelCheckingSuite } from '../harness/pollModel';
import { sized } from './scale';

describe('Poll Trigger model checking (long)', () => {
	modelCheckingSuite('poll-model-long', {
		histories: sized(1, 40),
		firstSeed: 1_001,
		size: { minutes: sized(20, 45), largestBurst: sized(60, 400) },
		timeoutMs: sized(90_000, 1_500_000),
	});
});
