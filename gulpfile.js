// Copies what tsc does not: node/credential icons and codex files, keeping their folders under dist/.
const { src, dest } = require('gulp');

function buildAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], { base: '.', encoding: false }).pipe(dest('dist'));
}

exports['build:assets'] = buildAssets;
