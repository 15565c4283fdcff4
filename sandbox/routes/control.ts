/**
 * Control routes under /__sandbox/ (NOT part of the contract, no auth): simulate collections, inject faults,
 * read the ledger and logs, change timing, settle pending transfers, reset.
 */
import { z } from 'zod';
import { ApiError, success, type Envelope } from '../http/envelope';
import { formatAmount, formatBalance, parseAmount } from '../data/money';
import * as present from '../http/present';
import type { Runtime } from '../runtime/runtime';
import { seedInfo } from '../data/seedInfo';
import { iso } from '../data/time';
import { accountNumber, looseAmount, nonEmpty, parse } from '../http/requestValidation';
import { dayPlanRoutes } from './dayPlan';
import { MALFORMED_KINDS, type MalformedKind } from '../types';

export interface ControlResponse {
	status: number;
	body: Envelope;
}

const collectionSchema = z
	.object({
		account_number: accountNumber,
		amount: looseAmount,
		reference: nonEmpty(100).optional(),
		narration: z.string().max(255).optional(),
		sender_name: z.string().max(255).optional(),
		channel: z.enum(['nip', 'intra']).optional(),
		status: z.enum(['success', 'pending', 'failed']).optional(),
	})
	.strict();

/** What a Slack incoming webhook takes; other Slack fields (blocks, username…) are accepted and ignored. */
const chatSchema = z.object({ text: z.string().min(1, { message: 'must not be empty' }).max(40_000) }).passthrough();

const configSchema = z
	.object({
		tokenTtlSeconds: z.number().min(0).optional(),
		dashboardTokenTtlSeconds: z.number().min(0).optional(),
		interSettleDelayMs: z.number().min(0).optional(),
		deliverWebhooks: z.boolean().optional(),
		listShape: z.enum(['documented', 'cursor']).optional(),
		pageCap: z.number().int().min(1, { message: 'must be at least 1' }).nullable().optional(),
		pageOffsets: z.enum(['served', 'asked']).optional(),
		listQuotaPerMinute: z.number().int().min(1, { message: 'must be at least 1' }).nullable().optional(),
		listOrder: z.enum(['created', 'recorded']).optional(),
	})
	.strict();

const malformedSchema = z
	.object({ reference: nonEmpty(100), as: z.enum(MALFORMED_KINDS as [MalformedKind, ...MalformedKind[]]) })
	.strict();

function ledger(rt: Runtime) {
	const { bank } = rt;
	const mainId = bank.main.id;
	const accounts = [...bank.accounts.values()];
	const mine = bank.transactions.filter((t) => t.businessId === mainId);
	const sum = (type: 'credit' | 'debit') => mine.filter((t) => t.type === type && t.status === 'success').reduce((s, t) => s + t.amount, 0n);
	return {
		business: { id: mainId, name: bank.main.name, active: bank.main.active },
		accounts: accounts.map((a) => ({
			account_number: a.accountNumber,
			account_name: a.accountName,
			account_type: a.accountType,
			status: a.status,
			balance: formatBalance(a.balance),
			pool_account_number: a.poolAccountNumber,
			owner: bank.businesses.get(a.businessId)?.name ?? '',
		})),
		totals: {
			business_balance: formatAmount(accounts.filter((a) => a.businessId === mainId).reduce((s, a) => s + a.balance, 0n)),
			transactions: mine.length,
			successful_credits: formatAmount(sum('credit')),
			successful_debits: formatAmount(sum('debit')),
			settlements: bank.settlements.filter((s) => s.businessId === mainId).length,
			pending_transfers: bank.pendingTransfers().length,
		},
		transfers: [...bank.transfers.values()].map((t) => ({
			...present.transfer(t),
			source_account_number: t.sourceAccountNumber,
			beneficiary_account_number: t.beneficiaryAccountNumber,
			bank_code: t.bankCode,
		})),
		recent_transactions: bank.transactions.slice(-50).reverse().map((t) => present.txApi(t, 'cursor')),
		webhooks: bank.webhooks.map((w) => ({
			id: w.id,
			url: w.url,
			events: w.events,
			created_at: iso(w.createdAtMs),
			...(w.disabledAtMs === undefined ? {} : { disabled_at: iso(w.disabledAtMs) }),
		})),
		deliveries: rt.webhooks.log.slice(-100),
		invitations: bank.invitations.map((i) => ({
			id: i.id,
			email: i.email,
			first_name: i.firstName,
			last_name: i.lastName,
			role_id: i.roleId,
			user_id: i.memberId,
			invited_by: i.invitedBy,
			created_at: iso(i.createdAtMs),
		})),
		roles: [...bank.roles.values()].map((r) => present.role(r, bank.permissions)),
		faults: rt.faults.list(),
		config: { ...rt.config },
	};
}

const ok = (data: unknown, message = 'OK'): ControlResponse => ({ status: 200, body: success(data, message) });

export function handleControl(rt: Runtime, method: string, path: string, body: unknown): ControlResponse {
	const route = `${method} ${path.replace(/\/+$/, '')}`;
	switch (route) {
		case 'GET /__sandbox/seed':
			return ok(seedInfo(rt.bank));
		case 'GET /__sandbox/ledger':
			return ok(ledger(rt));
		case 'GET /__sandbox/requests':
			return ok(rt.requestLog);
		case 'POST /__sandbox/requests/clear':
			rt.requestLog.length = 0;
			return ok({}, 'Request log cleared');
		case 'GET /__sandbox/deliveries':
			return ok(rt.webhooks.log);
		case 'GET /__sandbox/faults':
			return ok(rt.faults.list());
		case 'POST /__sandbox/faults':
			return ok(rt.faults.add(body), 'Fault added');
		case 'DELETE /__sandbox/faults':
			rt.faults.clear();
			return ok({}, 'Faults cleared');
		case 'GET /__sandbox/config':
			return ok({ ...rt.config });
		case 'POST /__sandbox/config':
			rt.configure(parse(configSchema, body));
			return ok({ ...rt.config }, 'Configuration updated');
		case 'GET /__sandbox/chat':
			return ok(rt.chat.list());
		case 'POST /__sandbox/chat':
			return ok(rt.chat.post(parse(chatSchema, body).text, Date.now()), 'Message posted');
		case 'DELETE /__sandbox/chat':
			rt.chat.clear();
			return ok({}, 'Chat cleared');
		case 'GET /__sandbox/malformed':
			return ok(Object.fromEntries(rt.bank.malformed));
		case 'POST /__sandbox/malformed': {
			const b = parse(malformedSchema, body);
			rt.bank.markMalformed(b.reference, b.as);
			return ok(Object.fromEntries(rt.bank.malformed), `${b.reference} is served as ${b.as}`);
		}
		case 'DELETE /__sandbox/malformed':
			rt.bank.malformed.clear();
			return ok({}, 'Malformed marks cleared');
		case 'POST /__sandbox/settle':
			rt.settleAll();
			return ok({}, 'Pending transfers settled');
		case 'POST /__sandbox/reset':
			rt.reset();
			return ok({}, 'Sandbox reset to its seeded state');
		case 'POST /__sandbox/business': {
			const b = parse(z.object({ active: z.boolean() }).strict(), body);
			rt.bank.main.active = b.active;
			return ok({ active: b.active }, `Business is now ${b.active ? 'active' : 'not active'}`);
		}
		case 'POST /__sandbox/collections': {
			const b = parse(collectionSchema, body);
			const { transaction } = rt.bank.collect(
				{
					accountNumber: b.account_number,
					amount: parseAmount(b.amount),
					reference: b.reference,
					narration: b.narration,
					senderName: b.sender_name,
					channel: b.channel,
					status: b.status,
				},
				Date.now(),
			);
			if (transaction.status === 'success') rt.emitCollection(transaction);
			// As the lists and the webhook serve it.
			return ok(present.txApi(transaction, rt.config.listShape), 'Collection credited');
		}
	}
	const planned = dayPlanRoutes(rt, route, body);
	if (planned) return ok(planned.data, planned.message);
	const faultId = /^DELETE \/__sandbox\/faults\/([\w-]+)$/.exec(route);
	if (faultId) {
		if (!rt.faults.remove(faultId[1])) throw new ApiError('25', `No fault ${faultId[1]}`, 404);
		return ok({}, 'Fault removed');
	}
	throw new ApiError('99', `Unknown control route ${method} ${path}`, 404);
}
