/**
 * The doc pages the nodes' and credentials' Docs links open (docs/credentials.md, docs/nodes/*.md) point users on
 * to other pages and to README sections: every such link must lead somewhere, as GitHub renders it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
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

const pages = ['docs/credentials.md', ...readdirSync(path.join(ROOT, 'docs', 'nodes')).map((file) => `docs/nodes/${file}`)];

describe('the Docs pages the editor links to', () => {
	test.each(pages)('every relative link of %s leads to an existing page and section', (page) => {
		const markdown = readFileSync(path.join(ROOT, page), 'utf8');
		const broken: string[] = [];
		for (const [, target] of markdown.matchAll(/\]\((?!https?:)([^)\s]+)\)/g)) {
			const [file, anchor] = target.split('#');
			const resolved = path.join(path.dirname(path.join(ROOT, page)), file);
			if (!existsSync(resolved)) broken.push(`${target}: no such file`);
			else if (anchor !== undefined && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target}: no such section`);
		}
		expect(broken).toEqual([]);
	});

	test('there is one page per node and one for the credentials', () => {
		expect(pages.sort()).toEqual(
			['docs/credentials.md', 'docs/nodes/baas-dashboard.md', 'docs/nodes/baas-poll-trigger.md', 'docs/nodes/baas-trigger.md', 'docs/nodes/baas.md'].sort(),
		);
	});
});
