/**
 * The last page of the payouts-from-file form (scripts/n8n/payoutPage.ts): what the person who uploaded the file
 * reads there. The expression is run as n8n runs it, given `$` for the two nodes it reads.
 */
import { runInNewContext } from 'node:vm';

import { readExample } from '../../scripts/n8n/examples';
import { PAGE_MESSAGE } from '../../scripts/n8n/payoutPage';

type Json = Record<string, unknown>;
const result = (reference: string, status: string, message: string): Json => ({ reference, amount: '1.00', status, message });

/** The Completion Message as n8n evaluates it: the text between {{ and }}, given Describe Outcome's and Check Rows' items. */
function page(results: Json[], lines: number[]): string {
	const inner = /^=\{\{ ([\s\S]*) \}\}$/.exec(PAGE_MESSAGE)?.[1];
	if (inner === undefined) throw new Error('the Completion Message is not one n8n expression');
	const nodes: Record<string, Json[]> = { 'Describe Outcome': results, 'Check Rows': lines.map((line) => ({ number: line, at: `line ${line}` })) };
	const $ = (name: string) => ({ all: () => nodes[name].map((json) => ({ json })) });
	return runInNewContext(inner, { $ }) as string;
}

describe('the page at the end of the payouts form', () => {
	test('counts the outcomes and lists each line not paid with its line number and why', () => {
		const text = page(
			[
				result('A', 'successful', 'paid'),
				result('B', 'not sent', 'not sent: line 3 has 7 values where the header has 6 columns'),
				result('C', 'refused', 'not made: The bank refused the request [83]'),
				result('D', 'successful', 'paid'),
			],
			[2, 3, 5, 6],
		);
		expect(text).toBe(
			'4 lines read: 2 paid, 1 not made (the bank refused them), 1 not sent. Your browser downloads payout-results.csv: every line of your file with its status and message.' +
				'<br>Not paid:<ul><li>line 3 (reference B): not sent: line 3 has 7 values where the header has 6 columns</li>' +
				'<li>line 5 (reference C): not made: The bank refused the request [83]</li></ul>',
		);
	});

	test('all paid: the counts alone', () => {
		expect(page([result('A', 'successful', 'paid')], [2])).toBe(
			'1 line read: 1 paid. Your browser downloads payout-results.csv: every line of your file with its status and message.',
		);
	});

	test('what came from the file shows as written, never as markup', () => {
		expect(page([result('<b>X&Y</b>', 'not sent', 'not sent: reference is "<script>"')], [2])).toContain(
			'<li>line 2 (reference &lt;b&gt;X&amp;Y&lt;/b&gt;): not sent: reference is "&lt;script&gt;"</li>',
		);
	});

	test('lists at most 20 lines and says how many more the results file has', () => {
		const many = Array.from({ length: 23 }, (_, i) => result(`R${i}`, 'not sent', 'not sent: amount is empty'));
		const text = page(many, many.map((_, i) => i + 2));
		expect(text.match(/<li>line/g)).toHaveLength(20);
		expect(text).toContain('<li>and 3 more: see payout-results.csv</li>');
	});

	test('is one expression, with no "}}" before its end, and the example holds it', () => {
		expect(PAGE_MESSAGE.slice(0, -2)).not.toContain('}}');
		const ending = readExample('payouts-from-file.json').nodes.find((node) => node.name === 'Download Results');
		expect(ending?.parameters.completionMessage).toBe(PAGE_MESSAGE);
	});
});
