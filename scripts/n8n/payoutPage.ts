/**
 * What the page at the end of the payouts-from-file form says (its Download Results node's Completion Message):
 * how many lines were read and how each went, then every line not paid with its line number and why, so the
 * person who uploaded the file reads what was wrong and where without opening n8n. An n8n expression over
 * Describe Outcome's results and Check Rows' line numbers (the two are in one order); its function is
 * `PAGE_JS`, which test/unit/payout-page.test.ts runs. n8n keeps <br>, <ul> and <li> in this message (on 1.x
 * and 2.x) and strips other markup; values from the file are escaped so they show as written.
 */
import { runInNewContext } from 'node:vm';

/** At most this many lines are listed on the page; the results CSV has them all. */
export const PAGE_LINES = 20;

/**
 * `(results, checked) => html`. No `}}` may appear in it, as n8n would end the expression there; plain
 * concatenation rather than template literals keeps it to what every n8n expression engine reads.
 */
export const PAGE_JS = `(results, checked) => {
  const html = (value) => String(value === undefined || value === null ? '' : value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const kinds = [['successful', 'paid'], ['pending', 'accepted, not final yet'], ['failed', 'failed at the bank'], ['refused', 'not made (the bank refused them)'], ['not sent', 'not sent'], ['unknown', 'outcome unknown']];
  const counted = kinds.map((kind) => [kind[1], results.filter((r) => r.status === kind[0]).length]).filter((kind) => kind[1] > 0);
  const said = results.length + (results.length === 1 ? ' line' : ' lines') + ' read: ' + counted.map((kind) => kind[1] + ' ' + kind[0]).join(', ') + '.';
  const open = results.map((r, i) => ({ r: r, at: (checked[i] || {}).at || 'line ?' })).filter((entry) => entry.r.status !== 'successful');
  const items = open.slice(0, ${PAGE_LINES}).map((entry) => '<li>' + html(entry.at + ' (reference ' + (entry.r.reference || 'none') + '): ' + entry.r.message) + '</li>');
  const more = open.length > ${PAGE_LINES} ? '<li>and ' + (open.length - ${PAGE_LINES}) + ' more: see payout-results.csv</li>' : '';
  const list = open.length === 0 ? '' : '<br>Not paid:<ul>' + items.join('') + more + '</ul>';
  return html(said) + ' Your browser downloads payout-results.csv: every line of your file with its status and message.' + list;
}`;

/** The Completion Message of the form's last page. */
export const PAGE_MESSAGE = `={{ (${PAGE_JS})($('Describe Outcome').all().map((item) => item.json), $('Check Rows').all().map((item) => item.json)) }}`;

/** The same function, for tests. */
export const pageMessage = runInNewContext(PAGE_JS) as (results: Array<Record<string, unknown>>, checked: Array<Record<string, unknown>>) => string;
