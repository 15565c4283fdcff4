/** Team management: members, invitations, roles and permissions (dashboard API). */
import { z } from 'zod';
import { ApiError } from '../http/envelope';
import * as present from '../http/present';
import { businessOf, memberOf, route, V1, type RouteDef } from '../http/routeDefinition';
import { dateWindow, inWindow } from '../state/filters';
import { pageSlice } from '../state/listing';
import type { Member, Role } from '../state/records';
import { dateRangeShape, email, emptyBody, nonEmpty, positiveInt, rangeFilters, uuid } from '../http/requestValidation';

const SORT_KEYS = {
	date_joined: (m: Member) => m.dateJoinedMs,
	email: (m: Member) => m.email.toLowerCase(),
	first_name: (m: Member) => m.firstName.toLowerCase(),
	last_name: (m: Member) => m.lastName.toLowerCase(),
};

export const teamRoutes: RouteDef[] = [
	route({
		path: `${V1}/auth/web/fetch_members`,
		auth: 'web',
		schema: z
			.object({
				filters: rangeFilters({
					...dateRangeShape,
					is_active: z.boolean().nullish(),
					role_id: uuid.nullish(),
					search: z.string().max(255, { message: 'must be at most 255 characters' }).nullish(),
				}),
				sort_by: z.enum(['date_joined', 'email', 'first_name', 'last_name']).nullish(),
				sort_order: z.enum(['asc', 'desc']).nullish(),
				page: positiveInt.nullish(),
				page_size: positiveInt.nullish(),
			})
			.strict(),
		handler: (ctx) => {
			const businessId = businessOf(ctx).id;
			const f = ctx.body.filters ?? {};
			const window = dateWindow(f);
			const needle = f.search?.toLowerCase() ?? '';
			const key = SORT_KEYS[ctx.body.sort_by ?? 'date_joined'];
			const dir = (ctx.body.sort_order ?? 'desc') === 'asc' ? 1 : -1;
			const members = [...ctx.rt.bank.members.values()]
				.filter(
					(m) =>
						m.businessId === businessId &&
						inWindow(m.dateJoinedMs, window) &&
						(f.is_active == null || m.isActive === f.is_active) &&
						(!f.role_id || m.roleId === f.role_id) &&
						(!needle || `${m.email} ${m.firstName} ${m.lastName}`.toLowerCase().includes(needle)),
				)
				.sort((a, b) => {
					const ka = key(a);
					const kb = key(b);
					// ties broken by id so pages never overlap
					if (ka !== kb) return (ka < kb ? -1 : 1) * dir;
					return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir;
				});
			return { data: pageSlice(members, ctx.body, ctx.rt.identifiedListPolicy()).map(present.member), message: 'Members fetched successfully' };
		},
	}),
	route({
		path: `${V1}/auth/web/get_member_detail`,
		auth: 'web',
		schema: z.object({ user_id: uuid }).strict(),
		handler: (ctx) => {
			const m = ctx.rt.bank.members.get(ctx.body.user_id);
			if (!m || m.businessId !== businessOf(ctx).id) throw new ApiError('25', `Member not found: ${ctx.body.user_id}`);
			return { data: present.member(m), message: 'Member fetched successfully' };
		},
	}),
	route({
		path: `${V1}/auth/web/add_member`,
		auth: 'web',
		schema: z.object({ email, first_name: nonEmpty(150), last_name: nonEmpty(150), role_id: uuid }).strict(),
		handler: (ctx) => {
			const { bank } = ctx.rt;
			const businessId = businessOf(ctx).id;
			const b = ctx.body;
			const role = bank.roles.get(b.role_id);
			if (!role || role.businessId !== businessId) throw new ApiError('25', `Role not found: ${b.role_id}`);
			const lower = b.email.toLowerCase();
			if ([...bank.members.values()].some((m) => m.email.toLowerCase() === lower)) {
				throw new ApiError('26', `A member with e-mail ${b.email} already exists or has been invited`);
			}
			// The invitee is a member who has not activated yet (no password, is_active false).
			const invitee = { businessId, email: b.email, firstName: b.first_name, lastName: b.last_name, roleId: role.id };
			const member: Member = { id: bank.newId(), ...invitee, isActive: false, lastLoginMs: null, dateJoinedMs: ctx.now };
			bank.members.set(member.id, member);
			bank.invitations.push({ id: bank.newId(), ...invitee, memberId: member.id, invitedBy: memberOf(ctx).id, createdAtMs: ctx.now });
			ctx.rt.log(`invitation e-mail to ${b.email} (role ${role.name}) recorded, not sent`);
			return { data: {}, message: `Invitation sent to ${b.email}` };
		},
	}),
	route({
		path: `${V1}/auth/web/fetch_permissions`,
		auth: 'web',
		schema: emptyBody,
		handler: ({ rt }) => ({ data: rt.bank.permissions.map(present.permission), message: 'Permissions fetched successfully' }),
	}),
	route({
		path: `${V1}/auth/web/create_role`,
		auth: 'web',
		schema: z
			.object({
				name: nonEmpty(255),
				description: z.string().max(1000, { message: 'must be at most 1000 characters' }).nullish(),
				permission_codes: z.array(nonEmpty(100)).min(1, { message: 'must list at least one permission code' }),
				permission_data: z.array(z.record(z.unknown())).nullish(),
			})
			.strict(),
		handler: (ctx) => {
			const { bank } = ctx.rt;
			const businessId = businessOf(ctx).id;
			const b = ctx.body;
			const known = new Set(bank.permissions.map((p) => p.code));
			const unknown = b.permission_codes.filter((c) => !known.has(c));
			if (unknown.length) {
				throw new ApiError('99', `permission_codes: unknown permission code ${unknown.map((c) => `'${c}'`).join(', ')}`);
			}
			const lower = b.name.toLowerCase();
			if ([...bank.roles.values()].some((r) => r.businessId === businessId && r.name.toLowerCase() === lower)) {
				throw new ApiError('26', `A role named ${b.name} already exists`);
			}
			const role: Role = {
				id: bank.newId(),
				businessId,
				name: b.name,
				description: b.description ?? '',
				permissionCodes: [...new Set(b.permission_codes)],
				permissionData: b.permission_data ?? [],
				createdAtMs: ctx.now,
			};
			bank.roles.set(role.id, role);
			return { data: present.role(role, bank.permissions), message: 'Role created successfully' };
		},
	}),
	route({
		path: `${V1}/auth/web/delete_role`,
		auth: 'web',
		schema: z.object({ role_id: uuid }).strict(),
		handler: (ctx) => {
			const { bank } = ctx.rt;
			const role = bank.roles.get(ctx.body.role_id);
			if (!role || role.businessId !== businessOf(ctx).id) throw new ApiError('25', `Role not found: ${ctx.body.role_id}`);
			if (memberOf(ctx).roleId === role.id) {
				throw new ApiError('99', `Cannot delete role ${role.name}: it is the role of your own account`, 409);
			}
			const holders = [...bank.members.values()].filter((m) => m.roleId === role.id).length;
			if (holders > 0) {
				throw new ApiError('99', `Cannot delete role ${role.name}: ${holders} member(s) still hold it; assign them another role first`, 409);
			}
			bank.roles.delete(role.id);
			return { data: {}, message: `Role ${role.name} deleted` };
		},
	}),
];
