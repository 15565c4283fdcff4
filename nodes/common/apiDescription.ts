import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { RESOURCES, resourceDescriptions, resourceSelector } from './actions/resources';
import type { Authentication } from './actions/selectors';
import { authenticationsFor } from './actions/selectors';

const offers = (api: Authentication, resource: string, operation: string) => authenticationsFor(resource, operation).includes(api);

const offersAny = (api: Authentication, resource: string, operations = Object.keys(RESOURCES[resource] ?? {})) =>
	operations.some((operation) => offers(api, resource, operation));

/** Whether a field of the shared description can show on a node whose Authentication is fixed to `api`. */
function shownWith(api: Authentication, property: INodeProperties): boolean {
	const show = property.displayOptions?.show;
	if (!show) return true;
	const authentications = show.authentication as string[] | undefined;
	if (authentications && !authentications.includes(api)) return false;
	const resources = show.resource as string[] | undefined;
	if (!resources) return true;
	const operations = property.name === 'operation' ? undefined : (show.operation as string[] | undefined);
	return resources.some((resource) => offersAny(api, resource, operations));
}

/** An Operation selector cut to the operations `api` offers, its default among them. */
function operationSelectorFor(api: Authentication, selector: INodeProperties): INodeProperties {
	const resource = (selector.displayOptions?.show?.resource as string[])[0];
	const options = (selector.options as INodePropertyOptions[]).filter((option) => offers(api, resource, String(option.value)));
	const keepsDefault = options.some((option) => option.value === selector.default);
	return { ...selector, options, default: keepsDefault ? selector.default : options[0].value };
}

/**
 * The properties of an action node that talks to one API only (BaaS v2: the API client; BaaS Dashboard: the
 * dashboard user), cut from the shared description. Authentication is a hidden, fixed parameter, so the
 * operations, the transport and the field conditions read it as on the two-API node, while n8n's editor sees a
 * node with one credential: the credential it preselects is always one that can run the operation.
 */
export function propertiesFor(api: Authentication): INodeProperties[] {
	const resources = (resourceSelector.options as INodePropertyOptions[]).filter((option) => offersAny(api, String(option.value)));
	return [
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: api },
		{ ...resourceSelector, options: resources, default: resources[0].value },
		...resourceDescriptions
			.filter((property) => shownWith(api, property))
			.map((property) => (property.name === 'operation' ? operationSelectorFor(api, property) : property)),
	];
}
