/**
 * The README is read by someone who has ten minutes: what the package is, the two commands, then "Try it" and
 * "Your first hour", each about a screen; everything else lives on the pages under docs/ it links to.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
const lines = readme.replace(/\n$/, '').split('\n');
const sections = lines.flatMap((line, index) => (/^## /.test(line) ? [{ title: line.slice(3).trim(), index }] : []));
const sectionLength = (title: string) => {
	const at = sections.findIndex((section) => section.title === title);
	return (sections[at + 1]?.index ?? lines.length) - sections[at].index;
};

describe('README.md', () => {
	test('stays under 250 lines', () => {
		expect(lines.length).toBeLessThan(250);
	});

	test('opens with "Try it" and "Your first hour", in that order', () => {
		expect(sections.slice(0, 2).map((section) => section.title)).toEqual(['Try it', 'Your first hour']);
	});

	test('"Try it" and "Your first hour" each fit in about one screen (45 lines, a picture is one line)', () => {
		expect(sectionLength('Try it')).toBeLessThanOrEqual(45);
		expect(sectionLength('Your first hour')).toBeLessThanOrEqual(45);
	});

	test('shows the two commands before the first section', () => {
		const top = lines.slice(0, sections[0].index).join('\n');
		expect(top).toMatch(/^npm install && npm run dev\b/m);
		expect(top).toMatch(/^npm test\b/m);
	});

	test('links the pages under docs/ that hold what moved out of it (docs-links.test.ts checks they resolve)', () => {
		for (const page of ['safety', 'polling', 'webhooks', 'queue-mode', 'performance', 'api-assumptions', 'operations', 'development'])
			expect(readme).toContain(`(docs/${page}.md)`);
	});
});
