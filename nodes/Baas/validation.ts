import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

/** Input rules from the contract (Limits) and DESIGN.md §4, checked before anything is sent to the bank. */
export const accountNumberSchema = z
	.string()
	.trim()
	.regex(/^\d{10}$/, 'must be exactly 10 digits');

/**
 * Validates one field of one item. A failure names the field, the problem and the item, and stops that item
 * before any request is sent.
 */
export function validField<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	schema: z.ZodType<T>,
	value: unknown,
): T {
	const parsed = schema.safeParse(value);
	if (parsed.success) return parsed.data;
	const problem = parsed.error.issues.map((issue) => issue.message).join('; ');
	const shown = typeof value === 'string' || typeof value === 'number' ? ` (got "${String(value)}")` : '';
	throw new NodeOperationError(context.getNode(), `${field} ${problem}${shown} in item ${itemIndex + 1}`, {
		itemIndex,
		description: `Fix the value of "${field}" for this item; nothing was sent to the bank.`,
	});
}
