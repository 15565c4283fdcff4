/**
 * No piece of the Poll Trigger's core calls back into one that called it (docs/architecture.md, "The Poll Trigger: a
 * pure core and a small loop"): a reader asked what a change to one function does follows its calls down, never
 * round. Checked on the source: every function and method of core/ and drive.ts, and the calls each makes to the
 * others (`this.x()` or `f.x()` a method of the follower, `x()` a function), must form a graph with no cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const trigger = join(__dirname, '..', '..', 'nodes', 'BaasPollTrigger');
const files = [...readdirSync(join(trigger, 'core')).map((name) => join(trigger, 'core', name)), join(trigger, 'drive.ts')].filter((path) => path.endsWith('.ts'));

/** Functions ("name") and the follower's methods ("#name"), each with the names it calls. */
function callGraph(): Map<string, Set<string>> {
	const graph = new Map<string, Set<string>>();
	for (const file of files) {
		const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
		const visit = (node: ts.Node, owner: string | undefined): void => {
			let self = owner;
			if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name !== undefined && ts.isIdentifier(node.name)) {
				self = ts.isMethodDeclaration(node) ? `#${node.name.text}` : node.name.text;
				if (!graph.has(self)) graph.set(self, new Set());
			}
			if (ts.isCallExpression(node) && self !== undefined) {
				const callee = node.expression;
				if (ts.isIdentifier(callee)) graph.get(self)?.add(callee.text);
				// `this.take()`, `f.take()`: the follower's method (other receivers, e.g. `mirror.slice()`, are not ours).
				if (ts.isPropertyAccessExpression(callee) && (callee.expression.kind === ts.SyntaxKind.ThisKeyword || (ts.isIdentifier(callee.expression) && callee.expression.text === 'f'))) {
					graph.get(self)?.add(`#${callee.name.text}`);
				}
			}
			ts.forEachChild(node, (child) => visit(child, self));
		};
		visit(source, undefined);
	}
	for (const calls of graph.values()) for (const name of [...calls]) if (!graph.has(name)) calls.delete(name);
	return graph;
}

/** Every cycle's path, found by a depth-first walk (empty: none). */
function cycles(graph: Map<string, Set<string>>): string[] {
	const found: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const walk = (name: string, path: string[]): void => {
		state.set(name, 'open');
		for (const next of graph.get(name) ?? []) {
			if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), name, next].join(' → '));
			else if (state.get(next) === undefined) walk(next, [...path, name]);
		}
		state.set(name, 'done');
	};
	for (const name of graph.keys()) if (state.get(name) === undefined) walk(name, []);
	return found;
}

describe('Poll Trigger: the core\'s calls go down, never round (core/, drive.ts)', () => {
	it('reads the calls the core makes (the graph is not empty: the walk sees what it must judge)', () => {
		const graph = callGraph();
		expect(graph.get('#take')).toEqual(expect.any(Set));
		expect([...(graph.get('checkBehind') ?? [])]).toEqual(expect.arrayContaining(['#take', 'boundsMove', 'learn']));
		// A cycle in a made-up graph is found, so an empty answer below means something.
		expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])]]))).toEqual(['a → b → a']);
	});

	it('has no cycle: take never runs the check, joins pages in a loop, and the search does not call its own step', () => {
		expect(cycles(callGraph())).toEqual([]);
	});
});
