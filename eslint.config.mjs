// The rule sets n8n's node CLI ships (eslint-plugin-n8n-nodes-base community/credentials/nodes and
// @n8n/eslint-plugin-community-nodes recommended) apply to what ships; the sandbox, tests, benchmarks
// and scripts are ordinary Node programs checked with plain TypeScript rules (docs/architecture.md, "Layers").
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const shipped = ['nodes/**/*.ts', 'credentials/**/*.ts'];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.n8n-test/**', '.cache/**', '.e2e/**', '**/*.js', '**/*.mjs'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, ...tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Switched off as in n8n's node CLI: its community rules take a URL here.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Switched off as in n8n's node CLI: NodeConnectionTypes.Main is the current form.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: shipped, ...n8nCommunityNodesPlugin.configs.recommended, ignores: [] },
);
