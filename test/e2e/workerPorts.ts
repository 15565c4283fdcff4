/**
 * Each jest worker runs its e2e files on its own 100 ports above BAAS_E2E_PORT_BASE (test/e2e/globalSetup.ts), so
 * files running at once in different workers never ask for the same port; files in one worker run one after another.
 * Runs before each test file, on that file's own copy of the environment.
 */
const base = Number(process.env.BAAS_E2E_PORT_BASE ?? 5700);
process.env.BAAS_E2E_PORT_BASE = String(base + 100 * (Number(process.env.JEST_WORKER_ID ?? 1) - 1));
