/** The contract's route table type: method, exact path, which token it takes, body schema, handler. */
import type { z, ZodTypeAny } from 'zod';
import type { Principal } from '../security/auth';
import type { Runtime } from '../runtime/runtime';
import type { Business, Member } from '../state/records';

export type AuthKind = 'none' | 'api' | 'web';

export interface RouteContext<B> {
	rt: Runtime;
	body: B;
	now: number;
	principal?: Principal;
}

export interface RouteResult {
	data: unknown;
	message: string;
	headers?: Record<string, string>;
	/** Runs once the answer is sent (not when a fault drops it). */
	afterServed?: () => void;
}

export interface RouteDef {
	method: 'GET' | 'POST';
	path: string;
	auth: AuthKind;
	schema: ZodTypeAny;
	handler(ctx: RouteContext<unknown>): RouteResult;
}

/** Typed constructor: the handler sees the schema's parsed type. */
export function route<S extends ZodTypeAny>(def: {
	method?: 'GET' | 'POST';
	path: string;
	auth: AuthKind;
	schema: S;
	handler(ctx: RouteContext<z.infer<S>>): RouteResult;
}): RouteDef {
	return { method: def.method ?? 'POST', path: def.path, auth: def.auth, schema: def.schema, handler: def.handler as RouteDef['handler'] };
}

export function businessOf(ctx: RouteContext<unknown>): Business {
	if (!ctx.principal) throw new Error(`route without auth asked for the caller's business`);
	return ctx.principal.business;
}

export function memberOf(ctx: RouteContext<unknown>): Member {
	if (ctx.principal?.typ !== 'web') throw new Error('route without a dashboard user asked for the member');
	return ctx.principal.member;
}

export const V1 = '/api/v1';
