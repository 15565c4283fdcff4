/**
 * The Read Only switch of both credentials (credentials/common.ts) and the rule that reads it
 * (nodes/common/actions/readOnly.ts). What it refuses at run time is tested in test/engine/read-only.test.ts.
 */
import type { ICredentialDataDecryptedObject, ICredentialType } from 'n8n-workflow';

import { BaasApi } from '../../credentials/BaasApi.credentials';
import { BaasDashboardApi } from '../../credentials/BaasDashboardApi.credentials';
import { isReadOnly } from '../../nodes/common/actions/readOnly';
import { RESOURCES } from '../../nodes/common/actions/resources';
import { authenticationsFor } from '../../nodes/common/actions/selectors';

const CREDENTIALS: Array<[string, ICredentialType, string[]]> = [
	['BaaS API', new BaasApi(), ['clientSecret', 'webhookSecret']],
	['BaaS Dashboard API', new BaasDashboardApi(), ['password']],
];

describe.each(CREDENTIALS)('%s credential', (_label, credential, secrets) => {
	const names = credential.properties.map((property) => property.name);
	const field = credential.properties.find((property) => property.name === 'readOnly');

	test('has a "Read Only" switch, off by default, saying what it refuses and whom it is for', () => {
		expect(field).toMatchObject({ displayName: 'Read Only', type: 'boolean', default: false });
		expect(field?.required).toBeFalsy();
		for (const words of ['payments', 'accounts', 'webhooks', 'team and roles', 'before any request', 'AI agents', 'MCP clients']) {
			expect(field?.description).toContain(words);
		}
	});

	test('the switch comes after the secrets', () => {
		for (const secret of secrets) expect(names.indexOf('readOnly')).toBeGreaterThan(names.indexOf(secret));
		expect(names.indexOf('readOnly')).toBeGreaterThan(0);
	});
});

describe('isReadOnly', () => {
	test('on only when the switch is on: a credential saved without the field may write', () => {
		expect(isReadOnly({ readOnly: true })).toBe(true);
		expect(isReadOnly({ readOnly: 'true' })).toBe(true);
		for (const off of [{}, { readOnly: false }, { readOnly: 'false' }, { readOnly: '' }] as ICredentialDataDecryptedObject[]) expect(isReadOnly(off)).toBe(false);
	});

	test('every write is offered by one API only, so the node\'s credential is the one the write is made with', () => {
		const writes = Object.entries(RESOURCES).flatMap(([resource, operations]) =>
			Object.entries(operations)
				.filter(([, operation]) => operation.changesState)
				.map(([operation]) => [`${resource}.${operation}`, authenticationsFor(resource, operation)] as const),
		);
		expect(writes.map(([name]) => name).sort()).toEqual([
			'account.create',
			'account.updateStatus',
			'member.invite',
			'role.create',
			'role.delete',
			'transfer.create',
			'webhook.create',
		]);
		for (const [, offeredBy] of writes) expect(offeredBy).toHaveLength(1);
	});
});
