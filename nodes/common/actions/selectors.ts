import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The node's Authentication values: API client (credential baasApi) and dashboard user (baasDashboardApi). */
export type Authentication = 'apiClient' | 'dashboardUser';
export const AUTHENTICATIONS: Authentication[] = ['apiClient', 'dashboardUser'];

export const BOTH: Authentication[] = ['apiClient', 'dashboardUser'];
export const API_CLIENT: Authentication[] = ['apiClient'];
export const DASHBOARD_USER: Authentication[] = ['dashboardUser'];

/** An operation, with the authentications whose API offers it. */
export interface SelectorOption extends INodePropertyOptions {
	reachableWith: Authentication[];
}

/** resource → operation → its label and the authentications whose API offers it, filled by operationsFor. */
const REACHABLE = new Map<string, Map<string, { label: string; reachableWith: Authentication[] }>>();

/** The authentications that can run an operation (empty for an unknown one). */
export function authenticationsFor(resource: string, operation: string): Authentication[] {
	return REACHABLE.get(resource)?.get(operation)?.reachableWith ?? [];
}

/** The operation's label as the Operation list shows it. */
export function operationLabel(resource: string, operation: string): string {
	return REACHABLE.get(resource)?.get(operation)?.label ?? operation;
}

const strip = ({ reachableWith: _reachableWith, ...option }: SelectorOption): INodePropertyOptions => option;

/**
 * The Operation selector of a resource: exactly one per resource, holding every operation, because n8n's node
 * picker reads only the first Operation parameter shown for a resource. When one API offers all of the
 * resource's operations, the selector is shown for that authentication only: the picker then sets that
 * Authentication with the action, so the credential offered is one that can run it.
 */
export function operationsFor(resource: string, options: SelectorOption[], preferredDefault?: string): INodeProperties[] {
	REACHABLE.set(resource, new Map(options.map((option) => [String(option.value), { label: option.name, reachableWith: option.reachableWith }])));
	const apis = new Set(options.flatMap((option) => option.reachableWith));
	const onlyApi = apis.size === 1 ? [...apis] : undefined;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource], ...(onlyApi ? { authentication: onlyApi } : {}) } },
		options: options.map(strip),
		default: '',
	};
	// Set apart from the literal: the default is computed (the preferred operation, else the first).
	selector.default = preferredDefault ?? (options[0].value as string);
	return [selector];
}
