/** Token issue and inspection for both APIs. */
import { z } from 'zod';
import { API_AUTHORITIES } from '../security/auth';
import { ApiError } from '../http/envelope';
import { businessOf, route, V1, type RouteDef } from '../http/routeDefinition';
import { iso, isoNoZone } from '../data/time';
import { emptyBody, nonEmpty } from '../http/requestValidation';

const secretField = z.string().min(1, { message: 'must not be empty' });

export const securityRoutes: RouteDef[] = [
	route({
		path: `${V1}/security/api/generate_token`,
		auth: 'none',
		schema: z.object({ client_id: secretField, client_secret: secretField }).strict(),
		handler: ({ rt, body, now }) => ({
			data: rt.auth.generateToken(body.client_id, body.client_secret, now),
			message: 'Token generated successfully',
		}),
	}),
	route({
		method: 'GET',
		path: `${V1}/security/api/validate_token`,
		auth: 'api',
		schema: emptyBody,
		handler: (ctx) => {
			const business = businessOf(ctx);
			const claims = ctx.principal?.claims;
			return {
				data: {
					username: business.username,
					client_id: business.clientId,
					authorities: API_AUTHORITIES,
					issued_at: isoNoZone((claims?.iat ?? 0) * 1000),
					expires_at: isoNoZone((claims?.exp ?? 0) * 1000),
				},
				message: 'Token is valid',
			};
		},
	}),
	route({
		path: `${V1}/auth/web/login`,
		auth: 'none',
		schema: z.object({ email: nonEmpty(), password: secretField }).strict(),
		handler: ({ rt, body, now }) => {
			const result = rt.auth.login(body.email, body.password, now);
			return {
				data: result,
				message: 'Login successful',
				headers: { 'Set-Cookie': `access_token=${result.token}; HttpOnly; Path=/; SameSite=Lax` },
			};
		},
	}),
	route({
		path: `${V1}/auth/web/verify`,
		auth: 'web',
		schema: z.object({ token: z.string().min(1, { message: 'must not be empty' }) }).strict(),
		handler: ({ rt, body, now }) => {
			// The body's token is the one under test; its failures are reported like a bearer failure (41/42).
			const checked = rt.auth.verify(body.token, 'web', now);
			if (checked.typ !== 'web') throw new ApiError('41', 'Invalid token');
			const role = rt.bank.roles.get(checked.member.roleId)?.name ?? '';
			return {
				data: {
					user_id: checked.member.id,
					email: checked.member.email,
					role,
					issued_at: iso(checked.claims.iat * 1000),
					expires_at: iso(checked.claims.exp * 1000),
				},
				message: 'Token is valid',
			};
		},
	}),
];
