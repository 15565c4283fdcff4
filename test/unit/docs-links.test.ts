/**
 * The README, the pages under docs/ (among them those the nodes' and credentials' Docs links open) and the
 * sandbox's and examples' guides point users at each other's sections: every such link must lead somewhere, as
 * GitHub renders it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** The page without fenced code blocks and inline code, where `#` and `](` are not markdown. */
function prose(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const withoutFences = markdown.replace(/^```[\s\S]*?^```/gm, '');
	for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const slug = heading
			.replace(/`/g, '')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** Every relative link (and picture) of `page` that leads to no file, or to no section of its file. */
function brokenLinks(page: string, markdown = readFileSync(path.join(ROOT, page), 'utf8')): string[] {
	const broken: string[] = [];
	for (const [, target] of prose(markdown).matchAll(/\]\((?!https?:|mailto:)([^)\s]+)\)/g)) {
		const [file, anchor] = target.split('#');
		const resolved = path.join(path.dirname(path.join(ROOT, page)), file);
		if (file !== '' && !existsSync(resolved)) broken.push(`${target}: no such file`);
		else if (anchor === undefined) continue;
		else if (file !== '' && statSync(resolved).isDirectory()) broken.push(`${target}: a folder has no sections`);
		else if (!anchorsOf(file === '' ? markdown : readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target}: no such section`);
	}
	return broken;
}

const markdownUnder = (folder: string): string[] =>
	readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? markdownUnder(`${folder}/${entry.name}`) : entry.name.endsWith('.md') ? [`${folder}/${entry.name}`] : [],
	);

const nodePages = ['docs/credentials.md', ...readdirSync(path.join(ROOT, 'docs', 'nodes')).map((file) => `docs/nodes/${file}`)];
const pages = ['README.md', ...markdownUnder('docs'), 'sandbox/README.md', 'examples/README.md'];

describe('the README and the docs pages', () => {
	test.each(pages)('every relative link of %s leads to an existing page and section', (page) => {
		expect(brokenLinks(page)).toEqual([]);
	});

	test('the check reports a link to a missing page or section, and passes the links that resolve', () => {
		const page = [
			'[gone](no-such-page.md), [moved](safety.md#no-such-section), [top](../README.md#try-it),',
			'[here](#a-section), [there](polling.md#webhook-or-polling), ![picture](editor-picker.png)',
			'`[code](not-a-link.md)`',
			'## A section',
		].join('\n');
		expect(brokenLinks('docs/example.md', page)).toEqual(['no-such-page.md: no such file', 'safety.md#no-such-section: no such section']);
		expect([...anchorsOf('# Safety\n## The outcome of every Transfer → Create item\n```bash\n# a comment\n```\n')]).toEqual([
			'safety',
			'the-outcome-of-every-transfer--create-item',
		]);
	});

	test('there is one page per node and one for the credentials', () => {
		expect(nodePages.sort()).toEqual(
			['docs/credentials.md', 'docs/nodes/baas-dashboard.md', 'docs/nodes/baas-poll-trigger.md', 'docs/nodes/baas-trigger.md', 'docs/nodes/baas.md'].sort(),
		);
	});
});
