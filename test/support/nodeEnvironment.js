/**
 * Jest's node environment, with one change: a test worker that jest has asked to end exits at once.
 *
 * Left to end by itself, a worker's event loop drains and Node then tears down its whole heap (ts-jest's TypeScript,
 * n8n's packages): measured at 180–320 ms on a quiet run of two small files, and past jest's fixed 500 ms on a
 * loaded two-core machine, where jest kills it and prints "A worker process has failed to exit gracefully", a
 * warning about leaked handles that were not there (no timer, socket or server was open after any file here;
 * jestjs/jest#11354). The message that asks a worker to end is jest-worker's last; nothing is sent after it.
 */
const { TestEnvironment } = require('jest-environment-node');

/** jest-worker's CHILD_MESSAGE_END (jest-worker/build/types.js). */
const CHILD_MESSAGE_END = 2;
const installed = Symbol.for('baas.exitOnEnd');

if (typeof process.send === 'function' && !process[installed]) {
	process[installed] = true;
	process.on('message', (message) => {
		if (Array.isArray(message) && message[0] === CHILD_MESSAGE_END) setImmediate(() => process.exit(0));
	});
}

module.exports = TestEnvironment;
