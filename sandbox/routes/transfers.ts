/** Banks, name enquiry, funds transfer (path and body: README, "Where the API documentation is silent") and transfer status. */
import { z } from 'zod';
import { ApiError } from '../http/envelope';
import { OWN_BANK_CODE } from '../data/fixtures';
import { parseAmount } from '../data/money';
import * as present from '../http/present';
import { businessOf, route, V1, type RouteDef } from '../http/routeDefinition';
import type { Transfer } from '../state/records';
import { accountNumber, amount, emptyBody, nonEmpty } from '../http/requestValidation';

export const transferRoutes: RouteDef[] = [
	route({
		path: `${V1}/transaction/transfer/api/fetch_banks`,
		auth: 'api',
		schema: emptyBody,
		handler: ({ rt }) => ({ data: rt.bank.banks.map(present.bankInfo), message: 'Banks fetched successfully' }),
	}),
	route({
		path: `${V1}/transaction/transfer/web/name_enquiry`,
		auth: 'web',
		schema: z
			.object({
				beneficiary_account_number: accountNumber,
				bank_code: nonEmpty(16),
				source_account_number: accountNumber,
			})
			.strict(),
		handler: (ctx) => {
			const { bank } = ctx.rt;
			const b = ctx.body;
			const info = bank.bankByCode(b.bank_code);
			if (!info) throw new ApiError('99', `bank_code: unknown bank code '${b.bank_code}'; use a code from fetch_banks`);
			if (!bank.ownedAccount(businessOf(ctx).id, b.source_account_number)) {
				throw new ApiError('44', `Source account not found: ${b.source_account_number}`);
			}
			let name: string | undefined;
			if (b.bank_code === OWN_BANK_CODE) {
				const local = bank.accounts.get(b.beneficiary_account_number);
				name = local && local.status !== 'closed' ? local.accountName : undefined;
			} else {
				name = bank.externalAccounts.find((e) => e.bankCode === b.bank_code && e.accountNumber === b.beneficiary_account_number)?.accountName;
			}
			if (!name) {
				throw new ApiError('83', `Name enquiry rejected by ${info.name}: account ${b.beneficiary_account_number} not found`);
			}
			return {
				data: { account_name: name, account_number: b.beneficiary_account_number, bank_name: info.name },
				message: 'Name enquiry successful',
			};
		},
	}),
	route({
		path: `${V1}/transaction/transfer/api/funds_transfer`,
		auth: 'api',
		schema: z
			.object({
				reference_number: nonEmpty(100),
				transfer_type: z.enum(['intra', 'inter']),
				amount,
				source_account_number: accountNumber,
				beneficiary_account_number: accountNumber,
				beneficiary_account_name: z.string().max(255, { message: 'must be at most 255 characters' }).nullish(),
				bank_code: nonEmpty(16).nullish(),
				narration: nonEmpty(255),
			})
			.strict()
			.superRefine((v, ctx) => {
				if (v.transfer_type === 'inter' && !v.bank_code) {
					ctx.addIssue({ code: 'custom', path: ['bank_code'], message: 'is required for an inter-bank transfer' });
				}
			}),
		handler: (ctx) => {
			const transfer = ctx.rt.bank.initiateTransfer(businessOf(ctx).id, { ...ctx.body, amount: parseAmount(ctx.body.amount) }, ctx.now);
			ctx.rt.afterTransfer(transfer);
			return {
				data: present.transfer(transfer),
				message: transfer.status === 'pending' ? 'Transfer accepted and pending' : 'Transfer successful',
			};
		},
	}),
	route({
		path: `${V1}/transaction/transfer/api/transaction_status`,
		auth: 'api',
		schema: z.object({ reference_number: nonEmpty(100) }).strict(),
		handler: (ctx) => {
			const businessId = businessOf(ctx).id;
			const ref = ctx.body.reference_number;
			let transfer: Transfer | undefined = ctx.rt.bank.findTransfer(businessId, ref);
			if (!transfer) {
				// Generated history holds outbound debits without a Transfer record: derive one from the debit.
				const tx = ctx.rt.bank.findTransaction(businessId, ref);
				if (tx && tx.type === 'debit' && tx.category === 'transfer') {
					transfer = {
						id: tx.id,
						businessId,
						reference: ref,
						amount: tx.amount,
						transferType: tx.channel === 'intra' ? 'intra' : 'inter',
						status: tx.status === 'success' ? 'successful' : tx.status,
						remarks: tx.narration,
						sourceAccountNumber: tx.accountNumber,
						beneficiaryAccountNumber: '',
						beneficiaryAccountName: null,
						bankCode: '',
						createdAtMs: tx.createdAtMs,
						updatedAtMs: tx.createdAtMs,
					};
				}
			}
			if (!transfer) throw new ApiError('06', `Transaction not found for reference_number ${ref}`);
			return { data: present.transfer(transfer), message: 'Transaction status fetched successfully' };
		},
	}),
];
