import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The node's Authentication values: API client (credential baasApi) and dashboard user (baasDashboardApi). */
export type Authentication = 'apiClient' | 'dashboardUser';
export const AUTHENTICATIONS: Authentication[] = ['apiClient', 'dashboardUser'];

export const BOTH: Authentication[] = ['apiClient', 'dashboardUser'];
export const API_CLIENT: Authentication[] = ['apiClient'];
export const DASHBOARD_USER: Authentication[] = ['dashboardUser'];

const AUTHENTICATION_OPTIONS: Record<Authentication, INodePropertyOptions> = {
	apiClient: {
		name: 'API Client',
		value: 'apiClient',
		description: 'Client ID and secret of your backend integration (the /api/ endpoints)',
	},
	dashboardUser: {
		name: 'Dashboard User',
		value: 'dashboardUser',
		description: 'E-mail and password of a dashboard user (the /web/ endpoints)',
	},
};

/** An operation, with the authentications whose API offers it. */
export interface SelectorOption extends INodePropertyOptions {
	reachableWith: Authentication[];
}

const strip = ({ reachableWith: _reachableWith, ...option }: SelectorOption): INodePropertyOptions => option;

/**
 * The Authentication choices for the operations of one resource: one parameter per set of APIs, shown
 * only for the operations those APIs offer, so an operation picked in n8n's node picker comes with an
 * authentication (and so a credential type) that can run it.
 */
function authenticationsFor(resource: string, options: SelectorOption[]): INodeProperties[] {
	const groups = new Map<string, { reachableWith: Authentication[]; operations: string[] }>();
	for (const option of options) {
		const key = option.reachableWith.join(',');
		const group = groups.get(key) ?? { reachableWith: option.reachableWith, operations: [] };
		group.operations.push(option.value as string);
		groups.set(key, group);
	}
	// The rule cannot see a computed default; each parameter's default is its first authentication.
	// eslint-disable-next-line n8n-nodes-base/node-param-default-missing
	return [...groups.values()].map(({ reachableWith, operations }) => ({
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: AUTHENTICATIONS.filter((authentication) => reachableWith.includes(authentication)).map(
			(authentication) => AUTHENTICATION_OPTIONS[authentication],
		),
		default: reachableWith[0],
		description:
			reachableWith.length === 1
				? `Only the ${AUTHENTICATION_OPTIONS[reachableWith[0]].name} credential can run this operation`
				: 'Which credential runs this operation',
		displayOptions: { show: { resource: [resource], operation: operations } },
	}));
}

/**
 * The Operation selector of a resource, followed by its Authentication choices. n8n's node picker reads the
 * first Operation parameter shown for a resource, so there is exactly one per resource, holding every operation.
 */
export function operationsFor(resource: string, options: SelectorOption[], preferredDefault?: string): INodeProperties[] {
	return [
		// The rule cannot see a computed default; it is the preferred operation or the first.
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: options.map(strip),
			default: preferredDefault ?? (options[0].value as string),
		},
		...authenticationsFor(resource, options),
	];
}
