import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Baas } from '../../nodes/Baas/Baas.node';
import codex from '../../nodes/Baas/Baas.node.json';
import { RESOURCES } from '../../nodes/Baas/actions/resources';
import { BaasTrigger } from '../../nodes/BaasTrigger/BaasTrigger.node';

const properties = new Baas().description.properties;
const options = (property: INodeProperties | undefined) => (property?.options ?? []) as INodePropertyOptions[];
const shownFor = (property: INodeProperties, resource: string) => property.displayOptions?.show?.resource?.includes(resource);

// The browser tests (test/e2e) check what n8n's picker shows; these check the description shape it is built from.
describe('the node description, as the node picker reads it', () => {
	test('one Resource parameter lists every resource the router knows', () => {
		const resources = properties.filter((p) => p.displayName === 'Resource');
		expect(resources).toHaveLength(1);
		expect(options(resources[0]).map((o) => o.value).sort()).toEqual(Object.keys(RESOURCES).sort());
	});

	test.each(Object.keys(RESOURCES))('%s: exactly one Operation parameter, holding each of its operations once', (resource) => {
		const selectors = properties.filter((p) => p.name === 'operation' && shownFor(p, resource));
		expect(selectors).toHaveLength(1);
		expect(options(selectors[0]).map((o) => o.value).sort()).toEqual(Object.keys(RESOURCES[resource]).sort());
		for (const option of options(selectors[0])) expect(option.action).toMatch(/\w/);
	});

	// n8n's picker sets, with an action, the first value of each condition its Operation parameter is shown under.
	test.each([
		['bank', 'apiClient'],
		['token', 'apiClient'],
		['webhook', 'apiClient'],
		['member', 'dashboardUser'],
		['permission', 'dashboardUser'],
		['role', 'dashboardUser'],
		['session', 'dashboardUser'],
		['settlement', 'dashboardUser'],
	])('%s: an action picked comes with the %s authentication, the only one that runs it', (resource, authentication) => {
		const selector = properties.find((p) => p.name === 'operation' && shownFor(p, resource));
		expect(selector?.displayOptions?.show?.authentication).toEqual([authentication]);
	});

	test('23 operations in all, and the picker entry reads as the BaaS node (n8n shows the trigger description there)', () => {
		expect(Object.values(RESOURCES).flatMap((ops) => Object.keys(ops))).toHaveLength(23);
		expect(new BaasTrigger().description.description).toBe(new Baas().description.description);
	});

	// n8n's picker search matches a node's name and codex aliases, not its actions' texts.
	test('every action phrase is a codex alias, so searching the picker for it finds BaaS', () => {
		const actions = properties.filter((p) => p.name === 'operation').flatMap((p) => options(p).map((o) => o.action));
		expect(actions).toHaveLength(23);
		for (const action of actions) expect(codex.alias).toContain(action);
	});
});
