/** n8n's REST (owner set-up, API keys) and public API (executions), as the e2e tests and `npm run dev` use them. */

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export const SANDBOX_OWNER: Owner = {
	email: 'owner@sandbox.bank',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Owner-2026',
};

function cookieFrom(response: Response): string {
	const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n set no n8n-auth cookie');
	return cookie.split(';')[0];
}

/** Sets the owner up on a fresh instance, or logs in when it already has one; returns the session cookie. */
export async function ownerSession(url: string, owner: Owner = SANDBOX_OWNER): Promise<string> {
	const setup = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (setup.ok) return cookieFrom(setup);
	const login = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: owner.email, emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	if (!login.ok) throw new Error(`n8n owner set-up (${setup.status}) and login (${login.status}) both failed`);
	return cookieFrom(login);
}

/** Creates a public-API key for the signed-in owner. */
export async function createApiKey(url: string, cookie: string): Promise<string> {
	const headers = { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' };
	const scopesResponse = await fetch(`${url}/rest/api-keys/scopes`, { headers });
	const scopes = scopesResponse.ok ? ((await scopesResponse.json()) as { data: string[] }).data : undefined;
	const response = await fetch(`${url}/rest/api-keys`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ label: `e2e ${Date.now()}`, expiresAt: null, ...(scopes ? { scopes } : {}) }),
	});
	if (!response.ok) throw new Error(`creating an API key failed: HTTP ${response.status} ${await response.text()}`);
	const { data } = (await response.json()) as { data: { rawApiKey?: string; apiKey?: string } };
	const key = data.rawApiKey ?? data.apiKey;
	if (!key) throw new Error('n8n returned no API key');
	return key;
}

export interface Execution {
	id: string;
	finished: boolean;
	status: string;
	workflowId: string;
	data?: { resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: { message: string } }>>; error?: { message: string } } };
}

/** Executions of a workflow, newest first, with their data. */
export async function listExecutions(url: string, apiKey: string, workflowId: string): Promise<Execution[]> {
	const response = await fetch(`${url}/api/v1/executions?workflowId=${workflowId}&includeData=true&limit=250`, {
		headers: { 'X-N8N-API-KEY': apiKey },
	});
	if (!response.ok) throw new Error(`reading executions failed: HTTP ${response.status}`);
	return ((await response.json()) as { data: Execution[] }).data;
}

/** Output items of one node in an execution. */
export function nodeOutput(execution: Execution, nodeName: string, output = 0): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData?.runData?.[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main[output] ?? []).map((item) => item.json));
}
