/** A bank that gives up waiting for n8n's answer: the delivery is sent whole, then the connection is closed. */
import { createHmac } from 'node:crypto';
import http from 'node:http';

export interface SignedDelivery {
	body: string;
	headers: Record<string, string>;
}

/** A COLLECTION_SUCCESS delivery of `reference`, signed as the bank signs it. */
export function signedCollection(reference: string, accountNumber: string, secret: string): SignedDelivery {
	const body = JSON.stringify({
		event: 'COLLECTION_SUCCESS',
		data: { reference_number: reference, amount: '10.00', account_number: accountNumber, status: 'success' },
		created_at: new Date().toISOString(),
	});
	return { body, headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` } };
}

/**
 * Sends `delivery` to `url` and closes the connection `afterMs` after the body was written, without reading an
 * answer. Resolves with the HTTP status when n8n answered first, or undefined when the hang-up came first.
 */
export async function sendAndHangUp(url: string, delivery: SignedDelivery, afterMs: number): Promise<number | undefined> {
	return await new Promise((resolve) => {
		let status: number | undefined;
		const request = http.request(url, { method: 'POST', headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) } });
		request.on('response', (response) => {
			status = response.statusCode;
			response.resume();
		});
		// The hang-up makes the request fail on this side; that is the point.
		request.on('error', () => {});
		request.on('close', () => resolve(status));
		request.end(delivery.body, () => setTimeout(() => request.destroy(), afterMs));
	});
}
