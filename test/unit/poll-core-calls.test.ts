/**
 * No piece of the Poll Trigger's core calls back into one that called it (docs/architecture.md, "The Poll Trigger: a
 * pure core and a small loop"): a reader asked what a change to one function does follows its calls down, never
 * round. Checked on the source: every task of core/ (its steps, `const xSteps`: the task `x`, which calls a task by
 * its frame, `call(y(…))`), every function and method, and the calls each makes to the others (`this.x()` or `f.x()`
 * a method of the follower, `x()` a function or a task's frame) must form a graph with no cycle.
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
			if ((ts.isFunctionDeclaration(node) || (ts.isMethodDeclaration(node) && ts.isClassDeclaration(node.parent))) && node.name !== undefined && ts.isIdentifier(node.name)) {
				self = ts.isMethodDeclaration(node) ? `#${node.name.text}` : node.name.text;
				if (!graph.has(self)) graph.set(self, new Set());
			}
			// A task's steps (`const takeSteps = {…}`: the task `take`), or a function held in a constant.
			if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
				const name = node.name.text;
				const init = node.initializer;
				if (name.endsWith('Steps') && ts.isObjectLiteralExpression(init)) self = name.slice(0, -'Steps'.length);
				else if (owner === undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) self = name;
				if (self !== owner && !graph.has(self as string)) graph.set(self as string, new Set());
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

/** The tasks (a `const xSteps` table each), and for each the tasks it calls, directly or through plain functions. */
function taskCalls(graph: Map<string, Set<string>>): Map<string, Set<string>> {
	const tasks = new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/const (\w+)Steps\b/g)].map((match) => match[1])));
	const out = new Map<string, Set<string>>();
	for (const task of tasks) {
		const calls = new Set<string>();
		const seen = new Set<string>([task]);
		const walk = (name: string): void => {
			for (const next of graph.get(name) ?? []) {
				if (seen.has(next)) continue;
				seen.add(next);
				if (tasks.has(next)) calls.add(next);
				else walk(next);
			}
		};
		walk(task);
		out.set(task, calls);
	}
	return out;
}

/** The task graph docs/architecture.md draws ("Which task calls which"): `a --> b & c` lines. */
function drawnTaskCalls(): Map<string, Set<string>> {
	const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'architecture.md'), 'utf8');
	const block = doc.slice(doc.indexOf('Which task calls which'));
	const chart = block.slice(block.indexOf('```mermaid'), block.indexOf('```', block.indexOf('```mermaid') + 3));
	const out = new Map<string, Set<string>>();
	for (const [, from, to] of chart.matchAll(/^\s*(\w+) --> (.+)$/gm)) out.set(from, new Set([...(out.get(from) ?? []), ...to.split('&').map((name) => name.trim())]));
	return out;
}

describe('Poll Trigger: the core\'s calls go down, never round (core/, drive.ts)', () => {
	it('reads the calls the core makes (the graph is not empty: the walk sees what it must judge)', () => {
		const graph = callGraph();
		expect([...(graph.get('take') ?? [])]).toEqual(expect.arrayContaining(['endsList', 'withPageAbove', 'withNextPage', '#place']));
		expect([...(graph.get('checkBehind') ?? [])]).toEqual(expect.arrayContaining(['sentinelHolds', 'lookBelow', 'makeMove', 'boundsMove', 'learn']));
		expect([...(graph.get('makeMove') ?? [])]).toEqual(expect.arrayContaining(['take', 'endsList']));
		// A cycle in a made-up graph is found, so an empty answer below means something.
		expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])]]))).toEqual(['a → b → a']);
	});

	it('has no cycle: take never runs the check, joins pages in a loop, and the search does not call its own step', () => {
		// (A task calling itself, or back into one that called it, would be a cycle here: e.g. take → take.)
		expect(cycles(callGraph())).toEqual([]);
	});

	it('draws in docs/architecture.md the task calls the code makes, no more and no fewer', () => {
		const code = taskCalls(callGraph());
		expect(code.size).toBeGreaterThanOrEqual(19);
		const sorted = (graph: Map<string, Set<string>>) => Object.fromEntries([...graph].filter(([, calls]) => calls.size > 0).map(([task, calls]) => [task, [...calls].sort()]).sort());
		expect(sorted(drawnTaskCalls())).toEqual(sorted(code));
	});
});
