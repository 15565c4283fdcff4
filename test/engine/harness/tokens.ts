import type { BankFixture } from './bankFixture';

/** Any JWT (what both of the bank's token kinds are): no output, error or log may contain one. */
export const JWT_SHAPE = /eyJ[\w-]*\.[\w-]+\.[\w-]+/;

/** A token obtained straight from the bank, outside the node (its held tokens stay private to it). */
export async function bankToken(fx: BankFixture, variant: 'api' | 'web'): Promise<string> {
	const [path, body] =
		variant === 'api'
			? ['/api/v1/security/api/generate_token', { client_id: fx.bank.seed.clientId, client_secret: fx.bank.seed.clientSecret }]
			: ['/api/v1/auth/web/login', { email: fx.bank.seed.dashboardEmail, password: fx.bank.seed.dashboardPassword }];
	const answer = await fetch(`${fx.bank.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return ((await answer.json()) as { data: { token: string } }).data.token;
}
