import type { IAuthenticateGeneric, INodeProperties } from 'n8n-workflow';

/** What both credentials share: where the bank is, where n8n keeps the token, and how it is sent. */

export const baseUrlField: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'http://127.0.0.1:4010',
	placeholder: 'https://api.your-bank.example',
	description:
		'Address of the bank API without /api/v1. The local sandbox bank (npm run sandbox) listens on http://127.0.0.1:4010.',
};

/** Filled by preAuthentication; `expirable` makes n8n fetch a new one after a 401. */
export const accessTokenField: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'hidden',
	typeOptions: { expirable: true, password: true },
	default: '',
};

export const bearerAuthentication: IAuthenticateGeneric = {
	type: 'generic',
	properties: {
		headers: { Authorization: '=Bearer {{$credentials.accessToken}}' },
	},
};

/** The credential test's base URL: the Base URL without trailing slashes. */
export const TEST_BASE_URL = '={{$credentials.baseUrl.replace(/\\/+$/, "")}}';
