// `npm run dev`: the sandbox bank plus n8n with this package loaded. Until the real-n8n issue lands this
// starts only the sandbox bank and says so, rather than pretending.
const { spawn } = require('node:child_process');

console.log('npm run dev: n8n itself is not wired in yet (tracked as the "In the real n8n" issue).');
console.log('Starting the sandbox bank only; point a BaaS credential at it from your own n8n.\n');
const child = spawn('npm', ['run', 'sandbox', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
const stop = () => child.kill('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => process.exit(code ?? 0));
