/** Kobo (BigInt) back to text: the bank's decimal form for fields, and a grouped form for sentences people read. */

/** 150050n → "1500.50", -50000n → "-500.00": two decimals, signed, never through a float. */
export function koboToAmount(kobo: bigint): string {
	const sign = kobo < 0n ? '-' : '';
	const digits = (kobo < 0n ? -kobo : kobo).toString().padStart(3, '0');
	return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** 150050n → "NGN 1,500.50" (the magnitude; the sentence around it says short or more). */
export function koboForPeople(kobo: bigint): string {
	const [units, cents] = koboToAmount(kobo < 0n ? -kobo : kobo).split('.');
	return `NGN ${units.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}
