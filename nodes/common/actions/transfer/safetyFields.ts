import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/**
 * What Send money offers for the times a person is not the one sending (an AI agent, a sheet): a name check
 * against the bank and limits. UI descriptions only; the logic is in nameCheck.ts, limits.ts and spendPolicy.ts.
 */

/**
 * Limits a person sets on Send money and nobody else can change: not the sheet a payout comes from, not an AI
 * agent (whose tool sees only the $fromAI parameters). Part of Send money's Options.
 */
export const limitFields: INodeProperties[] = [
	{
		displayName: 'Allowed Beneficiaries',
		name: 'allowedBeneficiaryAccounts',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0823100002:090823, 1234567890:000013',
		description:
			'Only these accounts may be paid, each as account number:bank code (an account number alone means this bank, 090823), separated by commas, spaces or new lines. The same number at another bank is another account and is refused. Empty: any account. Set by an expression that gives nothing: every payment is refused.',
	},
	{
		displayName: 'Daily Limit per Source Account',
		name: 'dailyLimit',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2000000.00',
		description:
			"The most one source account may send in a day (UTC), in NGN: counted from the bank's own list of the account's debits today (successful and pending) plus what this n8n is still sending, so it holds across executions and workflows. A payment that would pass it is refused before anything is sent. Empty: no limit. Set by an expression that gives nothing: every payment is refused.",
	},
	{
		displayName: 'Maximum Amount',
		name: 'maximumAmount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 500000.00',
		description:
			'The most one transfer may send, in NGN (for example 500000.00). A larger amount is refused before anything is sent. Empty: no limit. Set by an expression that gives nothing: every payment is refused.',
	},
];


/** Its default is what the form shows and what a saved node without it does. */
export const checkBeneficiaryNameField: INodeProperties = {
	displayName: 'Check Beneficiary Name',
	name: 'checkBeneficiaryName',
	type: 'boolean',
	default: false,
	// Version 1 offers both APIs behind Authentication and cannot hold the second credential this needs.
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	description:
		"Whether to ask the bank for the name on the beneficiary account (Name Enquiry, with a BaaS Dashboard credential) just before sending, and refuse the transfer when it is not the Beneficiary Account Name given. Required when Send money runs as an AI agent's tool.",
};

/**
 * The Name Enquiry of that check is a dashboard route, so the node takes a BaaS Dashboard credential too, asked
 * for only when the check is on (the node otherwise keeps one credential, which n8n's editor preselects). The
 * condition reads the fields from the node's root ("/…"): n8n's editor takes a field named plainly in a
 * credential's condition for an authentication field, and n8n 1.x then took the yes/no Check Beneficiary Name for
 * the node's main one: it offered only BaaS Dashboard credentials under "Credential to connect with", preselected
 * none, and hid Resource and Operation (the fields Check Beneficiary Name is shown for).
 */
export const NAME_CHECK_CREDENTIAL: INodeCredentialDescription = {
	name: 'baasDashboardApi',
	required: true,
	displayOptions: { show: { '/resource': ['transfer'], '/operation': ['create'], '/checkBeneficiaryName': [true] } },
};
