import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The node's Authentication values: API client (credential baasApi) and dashboard user (baasDashboardApi). */
export type Authentication = 'apiClient' | 'dashboardUser';
export const AUTHENTICATIONS: Authentication[] = ['apiClient', 'dashboardUser'];

/** An option of the resource or operation selector, offered only to the authentications that reach it. */
export interface SelectorOption extends INodePropertyOptions {
	reachableWith: Authentication[];
}

const strip = ({ reachableWith: _reachableWith, ...option }: SelectorOption): INodePropertyOptions => option;

/**
 * One selector per authentication, so that each credential shows only what its API can do. Where both
 * authentications see the same options, a single selector serves both.
 */
export function selectorsFor(
	base: Omit<INodeProperties, 'options' | 'default' | 'type'>,
	options: SelectorOption[],
	preferredDefault?: string,
): INodeProperties[] {
	const byAuthentication = AUTHENTICATIONS.map((authentication) => ({
		authentication,
		options: options.filter((option) => option.reachableWith.includes(authentication)).map(strip),
	})).filter((entry) => entry.options.length > 0);

	const same =
		byAuthentication.length === 2 &&
		JSON.stringify(byAuthentication[0].options) === JSON.stringify(byAuthentication[1].options);
	const groups = same ? [{ authentication: undefined, options: byAuthentication[0].options }] : byAuthentication;

	return groups.map(({ authentication, options: groupOptions }) => ({
		...base,
		type: 'options',
		noDataExpression: true,
		options: groupOptions,
		default: groupOptions.some((option) => option.value === preferredDefault) ? preferredDefault : groupOptions[0].value,
		displayOptions: {
			...base.displayOptions,
			show: {
				...base.displayOptions?.show,
				...(authentication ? { authentication: [authentication] } : {}),
			},
		},
	}));
}

export const BOTH: Authentication[] = ['apiClient', 'dashboardUser'];
export const API_CLIENT: Authentication[] = ['apiClient'];
export const DASHBOARD_USER: Authentication[] = ['dashboardUser'];
