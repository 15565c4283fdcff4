import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Execution } from '../../../scripts/n8n/api';
import { nodeOutput } from '../../../scripts/n8n/api';
import type { QueueProcess, QueueStack } from './stack';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 180_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(500);
	}
}

/** Every execution of a workflow through n8n's public API (all pages), with data. */
export async function allExecutions(url: string, apiKey: string, workflowId: string): Promise<Execution[]> {
	const all: Execution[] = [];
	let cursor: string | undefined;
	do {
		const query = `workflowId=${workflowId}&includeData=true&limit=250${cursor ? `&cursor=${cursor}` : ''}`;
		const response = await fetch(`${url}/api/v1/executions?${query}`, { headers: { 'X-N8N-API-KEY': apiKey } });
		if (!response.ok) throw new Error(`reading executions failed: HTTP ${response.status}`);
		const page = (await response.json()) as { data: Execution[]; nextCursor?: string | null };
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

export const isFinished = (execution: Execution) => !['running', 'new', 'waiting'].includes(execution.status);

/** The collection event each execution of the collection workflow received: reference → amounts seen (one per execution). */
export function eventsByReference(executions: Execution[]): Map<string, string[]> {
	const byReference = new Map<string, string[]>();
	for (const execution of executions) {
		for (const event of nodeOutput(execution, 'Money Received')) {
			// A run n8n failed to start holds no event (the bank's retry delivered it again).
			const data = event.data as Record<string, string> | undefined;
			if (!data?.reference_number) continue;
			byReference.set(data.reference_number, [...(byReference.get(data.reference_number) ?? []), data.amount]);
		}
	}
	return byReference;
}

/** Execution ids a worker's log says it ran (n8n logs "… execution <id> …" at info level when a job starts). */
export function executionsRunBy(worker: QueueProcess): Set<string> {
	const text = readFileSync(path.join(worker.config.userFolder, 'n8n-worker.log'), 'utf8');
	return new Set([...text.matchAll(/[Ss]tart\w* execution (\d+)/g)].map((match) => match[1]));
}

/** Sign-ins the bank received since it started: API-client token exchanges, dashboard logins, and lockouts (HTTP 423). */
export function signIns(stack: QueueStack): { api: number; dashboard: number; locked: number } {
	const requests = stack.bank.requests();
	return {
		api: requests.filter((request) => request.path.includes('generate_token')).length,
		dashboard: requests.filter((request) => request.path.includes('/auth/web/login')).length,
		locked: requests.filter((request) => request.status === 423).length,
	};
}

interface Ledger {
	transfers: Array<{ reference_number: string; status: string; amount: string; beneficiary_account_number: string }>;
	webhooks: Array<{ url: string; events: string[] }>;
}

export async function ledger(stack: QueueStack): Promise<Ledger> {
	return ((await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as { data: Ledger }).data;
}
