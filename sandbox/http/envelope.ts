/** The contract's response envelope and the sandbox's mapping of response codes to HTTP statuses (README, "Where the API documentation is silent"). */

export interface Envelope {
	status: boolean;
	response_code: string;
	message: string;
	data: unknown;
}

/** HTTP status for an error code: 401 for auth, 503 provider down, 400 invalid input, 429 rate limit; else 200. */
export function httpStatusFor(code: string): number {
	switch (code) {
		case '41':
		case '42':
			return 401;
		case '80':
			return 503;
		case '99':
			return 400;
		case '29':
			return 429;
		default:
			return 200;
	}
}

/** Default wording per code, used by injected faults and generic errors. */
export const DEFAULT_MESSAGES: Record<string, string> = {
	'06': 'Transaction not found for the given reference number',
	'25': 'Record not found',
	'26': 'Duplicate reference',
	'29': 'Too many requests',
	'41': 'Customer not found: invalid or expired session token or API credentials',
	'42': 'Token expired',
	'44': 'Account not found for the given account number',
	'45': 'Invalid status transition',
	'51': 'Insufficient funds',
	'57': 'Source account is not active',
	'60': 'Customer not active',
	'80': 'Service unavailable: the core banking provider is temporarily unreachable',
	'83': 'Request rejected by the core banking system',
	'99': 'Invalid request',
};

/** Thrown by handlers; the server turns it into an error envelope (data null). */
export class ApiError extends Error {
	readonly code: string;
	readonly httpStatus: number;
	readonly headers: Record<string, string>;

	constructor(code: string, message?: string, httpStatus?: number, headers: Record<string, string> = {}) {
		super(message ?? DEFAULT_MESSAGES[code] ?? 'Error');
		this.code = code;
		this.httpStatus = httpStatus ?? httpStatusFor(code);
		this.headers = headers;
	}
}

export function success(data: unknown, message: string): Envelope {
	return { status: true, response_code: '00', message, data };
}

export function failure(code: string, message: string): Envelope {
	return { status: false, response_code: code, message, data: null };
}
