/** The list shapes a bank may have (sandbox/README.md, "List shapes"): suites that read lists run in each. */
import type { ListShape } from '../../../sandbox';
import type { BankFixture } from './bankFixture';

/** The contract's fields only (page numbers, or cursor_created_at alone), and ids with cursor_id. */
export const LIST_SHAPES: readonly ListShape[] = ['documented', 'cursor'];

/** Inside a describe: its tests run against the bank in `shape`; the documented shape comes back after them. */
export function inListShape(fx: BankFixture, shape: ListShape): void {
	beforeAll(() => fx.bank.configure({ listShape: shape }));
	afterAll(() => fx.bank.configure({ listShape: 'documented' }));
}
