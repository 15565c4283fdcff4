/**
 * The test layers (docs/architecture.md, "Test layers"): unit, sandbox (the bank itself over HTTP), engine (nodes
 * run by n8n-core) and e2e (the real n8n application; `npm run test:e2e`, not part of `npm test`), queue (n8n in
 * queue mode; `npm run test:queue`).
 */
const common = {
	preset: 'ts-jest',
	// Jest's node environment, with workers that exit at once when asked to end (test/support/nodeEnvironment.js).
	testEnvironment: '<rootDir>/test/support/nodeEnvironment.js',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	// n8n user folders (.cache/) and the build hold package.json files jest must not index as modules.
	modulePathIgnorePatterns: ['<rootDir>/.cache/', '<rootDir>/dist/'],
};

module.exports = {
	testTimeout: 60000,
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
		{ ...common, displayName: 'sandbox', testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'] },
		{
			...common,
			displayName: 'engine',
			testMatch: ['<rootDir>/test/engine/**/*.test.ts'],
			setupFiles: ['<rootDir>/test/engine/setup-env.ts'],
		},
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
			// Once before any file: pack, install n8n, pick free ports; then each worker its own ports.
			globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
			setupFiles: ['<rootDir>/test/e2e/workerPorts.ts'],
		},
		{
			...common,
			displayName: 'queue',
			testMatch: ['<rootDir>/test/queue/**/*.queue.test.ts'],
			globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
		},
	],
	// Long e2e files first, so parallel workers end together.
	testSequencer: '<rootDir>/test/e2e/sequencer.js',
	// Each file's time at the end of a run, where BAAS_FILE_TIMES is set (.ci/run, the e2e and queue scripts).
	reporters: ['default', ...(process.env.BAAS_FILE_TIMES ? ['<rootDir>/test/support/fileTimesReporter.js'] : [])],
};
