import type { SandboxHandle } from '../../../sandbox';
import { signWebhookBody } from '../../../sandbox';

/** An active virtual account of the sandbox business, to receive collections. */
export function collectionAccount(bank: SandboxHandle): string {
	return bank.seed.accounts.find((account) => account.account_type === 'virtual' && account.status === 'active')!.account_number;
}

export interface Collection {
	reference: string;
	amount: string;
}

/** `count` collections with distinct references and amounts (decimal strings, cents varying). */
export function collections(prefix: string, count: number): Collection[] {
	return Array.from({ length: count }, (_, i) => ({ reference: `${prefix}-${i + 1}`, amount: `${1000 + i}.${String(i % 100).padStart(2, '0')}` }));
}

/**
 * Simulates inbound payments at the bank, `burst` at a time; the bank then delivers COLLECTION_SUCCESS to every
 * registered webhook. Resolves when the bank has booked all of them.
 */
export async function simulateCollections(bank: SandboxHandle, list: Collection[], burst = 25): Promise<void> {
	const account_number = collectionAccount(bank);
	for (let start = 0; start < list.length; start += burst) {
		await Promise.all(
			list.slice(start, start + burst).map(async ({ reference, amount }) => {
				const status = await postLikeTheBank(`${bank.url}/__sandbox/collections`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ account_number, reference, amount }),
				});
				// A retry after a lost answer finds the reference used (400): the first attempt booked it.
				const booked = status === 200 || (status === 400 && bank.bank.transactions.some((t) => t.reference === reference));
				if (!booked) throw new Error(`collection ${reference}: HTTP ${status}`);
			}),
		);
	}
}

/** A COLLECTION_SUCCESS delivery exactly as the bank signs it, to send by hand to one chosen webhook processor. */
export function signedEvent(bank: SandboxHandle, collection: Collection): { body: string; headers: Record<string, string> } {
	const body = JSON.stringify({
		event: 'COLLECTION_SUCCESS',
		data: { reference_number: collection.reference, amount: collection.amount, account_number: collectionAccount(bank), currency: 'NGN' },
		created_at: new Date().toISOString(),
	});
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'x-service-signature': signWebhookBody(body, bank.seed.webhookSecret),
			'x-service-event': 'COLLECTION_SUCCESS',
		},
	};
}

/** POSTs and retries what did not get a 2xx (5 attempts, 0.5 s doubling), as the bank retries its deliveries; returns the last status. */
export async function postLikeTheBank(url: string, init: RequestInit = { method: 'POST' }): Promise<number> {
	let status = 0;
	for (let attempt = 0; attempt < 5; attempt++) {
		if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (attempt - 1)));
		try {
			const response = await fetch(url, init);
			await response.arrayBuffer();
			status = response.status;
		} catch {
			status = 0;
		}
		if (status >= 200 && status < 300) break;
	}
	return status;
}

/** Delivers a signed event to one URL the way the bank does (retried until a 2xx); returns the last status. */
export async function deliver(url: string, event: { body: string; headers: Record<string, string> }): Promise<number> {
	return await postLikeTheBank(url, { method: 'POST', headers: event.headers, body: event.body });
}
