import { REDACTED, scrubberFor, scrubPatterns } from '../../nodes/common/transport/scrub';

describe('scrubber', () => {
	const scrub = scrubberFor(['s3cret-value-1', 'pw', undefined, 'longer-s3cret-value-1-x']);

	test('removes the given secret values, longest first, and ignores values too short to matter', () => {
		expect(scrub('a longer-s3cret-value-1-x and s3cret-value-1 here')).toBe(`a ${REDACTED} and ${REDACTED} here`);
		expect(scrub('pwned')).toBe('pwned');
	});

	test('removes bearer tokens and anything shaped like a JWT', () => {
		expect(scrubPatterns('received Authorization: Bearer abc.def-ghi')).toBe(`received Authorization: Bearer ${REDACTED}`);
		expect(scrubPatterns('token eyJhbGciOi.eyJzdWIi.c2ln was refused')).toBe(`token ${REDACTED} was refused`);
	});

	test('removes the user-info of URLs, keeping the host', () => {
		expect(scrubPatterns('Could not reach the bank at https://ops:p%40ss@bank.example:8443/x')).toBe(
			'Could not reach the bank at https://bank.example:8443/x',
		);
		expect(scrubPatterns('at http://token@127.0.0.1:4010')).toBe('at http://127.0.0.1:4010');
	});

	test('leaves ordinary text alone', () => {
		const text = 'The bank refused the request [51]: Insufficient funds on 0823000002 (e-mail ops@bank.example)';
		expect(scrub(text)).toBe(text);
	});

	test('secret values with regular-expression characters are matched literally', () => {
		expect(scrubberFor(['a+b(c)*?[d]'])('x a+b(c)*?[d] y')).toBe(`x ${REDACTED} y`);
	});
});
