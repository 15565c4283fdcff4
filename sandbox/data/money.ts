/**
 * Money is kept as BigInt minor units (kobo, 1/100 NGN) and only turned into text at the edge,
 * so no amount ever passes through a binary float.
 */

/** A positive or zero decimal with at most 2 fractional digits, no sign, no exponent. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;

/** '1500.5' -> 150050n. The caller has checked AMOUNT_PATTERN. */
export function parseAmount(text: string): bigint {
	const [whole, frac = ''] = text.split('.');
	return BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
}

function split(minor: bigint): { sign: string; whole: string; frac: string } {
	const sign = minor < 0n ? '-' : '';
	const abs = minor < 0n ? -minor : minor;
	return { sign, whole: (abs / 100n).toString(), frac: (abs % 100n).toString().padStart(2, '0') };
}

/** 150050n -> '1500.50' (amounts). */
export function formatAmount(minor: bigint): string {
	const { sign, whole, frac } = split(minor);
	return `${sign}${whole}.${frac}`;
}

/** 150050n -> '1500.500000000' (balances carry nine fractional digits in the contract). */
export function formatBalance(minor: bigint): string {
	const { sign, whole, frac } = split(minor);
	return `${sign}${whole}.${frac}0000000`;
}
