import type { IDataObject, INode } from 'n8n-workflow';

import { PACKAGE_PREFIX } from './nodeTypes';

/** Credential ids by type (e.g. { baasApi: 'api-1' }) as a node refers to them. */
export function credentialRefs(credentials: Record<string, string>): INode['credentials'] {
	return Object.fromEntries(Object.entries(credentials).map(([type, id]) => [type, { id, name: `${type} ${id}` }]));
}

/** The BaaS node of a test workflow, with the editor's current parameters and the credentials by type. */
export function baasNode(parameters: IDataObject, credentials: Record<string, string>, at: INode['position'] = [0, 0]): INode {
	return {
		id: 'baas',
		name: 'BaaS',
		type: `${PACKAGE_PREFIX}.baas`,
		typeVersion: 1,
		position: at,
		parameters: parameters as INode['parameters'],
		credentials: credentialRefs(credentials),
	};
}
