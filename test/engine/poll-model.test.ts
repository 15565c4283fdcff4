/**
 * Randomized model checking of the Poll Trigger, short form (issue 26): a few random bank histories inside
 * npm test. The long form is test/engine/reliability/poll-model.test.ts; the generator and the checker are
 * harness/pollModel.ts and harness/pollOracle.ts. Replay one history: BAAS_POLL_MODEL_SEED=<seed>.
 */
import { modelCheckingSuite } from './harness/pollModel';

describe('Poll Trigger model checking (short)', () => {
	modelCheckingSuite('poll-model', { histories: 10, firstSeed: 1, size: { minutes: 15, largestBurst: 40 }, timeoutMs: 90_000 });
});
