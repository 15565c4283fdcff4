/**
 * The test layers (docs/architecture.md, "Test layers"): unit, sandbox (the bank itself over HTTP), engine (nodes
 * run by n8n-core) and e2e (the real n8n application; `npm run test:e2e`, not part of `npm test`), queue (n8n in
 * queue mode; `npm run test:queue`).
 */
const common = {
	preset: 'ts-jest',
	testEnvironment: 'node',
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
		{ ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'] },
		{ ...common, displayName: 'queue', testMatch: ['<rootDir>/test/queue/**/*.queue.test.ts'] },
	],
};
