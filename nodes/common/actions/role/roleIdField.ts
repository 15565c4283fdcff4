import type { INodeProperties } from 'n8n-workflow';

/** A role, given by its UUID (required unless it is a filter). */
export function roleIdField(description: string, { required = true }: { required?: boolean } = {}): INodeProperties {
	return {
		displayName: 'Role ID',
		name: 'roleId',
		type: 'string',
		...(required ? { required: true } : {}),
		default: '',
		placeholder: '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b',
		description,
	};
}
