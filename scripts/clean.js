// Removes build output before a fresh build, so deleted sources leave no stale files in the tarball.
const fs = require('node:fs');
fs.rmSync(require('node:path').join(__dirname, '..', 'dist'), { recursive: true, force: true });
