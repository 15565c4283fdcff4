/**
 * The credentials the AI examples name (by these ids), in the form `n8n import:credentials` takes, beside the
 * bank's (credentials.ts): the sandbox's stand-in model as n8n's OpenAI credential, and the bearer token that
 * protects the MCP example. Both are for the sandbox on this machine only.
 */
export const STAND_IN_MODEL_CREDENTIAL = { id: 'BaasStandInModel', name: 'Stand-in model (sandbox)' };
export const MCP_TOKEN_CREDENTIAL = { id: 'BaasMcpBearer001', name: 'BaaS MCP token (sandbox)' };

/** The MCP example's bearer token in `npm run dev` and the e2e runs: fixed, so an MCP client's config keeps working. */
export const SANDBOX_MCP_TOKEN = 'sandbox-mcp-token-for-this-machine-only';

export function aiCredentials(modelBaseUrl: string) {
	return [
		{
			...STAND_IN_MODEL_CREDENTIAL,
			type: 'openAiApi',
			// The stand-in takes any key; n8n's OpenAI credential requires one.
			data: { apiKey: 'stand-in-model-needs-no-key', url: modelBaseUrl, header: false },
		},
		{ ...MCP_TOKEN_CREDENTIAL, type: 'httpBearerAuth', data: { token: SANDBOX_MCP_TOKEN } },
	];
}
