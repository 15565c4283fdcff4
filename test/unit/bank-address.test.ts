/** Issue 34, item 4: two Base URLs name the same bank when scheme, host, port and path agree, whatever the spelling. */
import { bankAddressOf } from '../../nodes/common/transport/bankAddress';

describe('the bank a Base URL names', () => {
	test.each([
		['https://bank.example:443/', 'https://bank.example'],
		['HTTPS://Bank.Example/api/', 'https://bank.example/api'],
		['http://gateway:P4ssw0rd@bank.example:80', 'http://bank.example'],
		['  http://127.0.0.1:4010//  ', 'http://127.0.0.1:4010'],
	])('%s is %s', (spelling, canonical) => {
		expect(bankAddressOf(spelling)).toBe(bankAddressOf(canonical));
	});

	test.each([
		['https://bank.example', 'http://bank.example'],
		['https://bank.example', 'https://bank.example:8443'],
		['https://bank.example/a', 'https://bank.example/b'],
		['https://bank.example', 'https://gateway.example'],
	])('%s is not %s', (one, other) => {
		expect(bankAddressOf(one)).not.toBe(bankAddressOf(other));
	});

	test('holds no user-info, also for what is no URL', () => {
		expect(bankAddressOf('http://ops:P4ss@w0rd@bank.example')).toBe('http://bank.example');
		expect(bankAddressOf('not a url http://ops:P4ssw0rd@bank')).not.toContain('P4ssw0rd');
	});
});
