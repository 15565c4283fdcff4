import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { Baas } from '../../../nodes/Baas/Baas.node';
import { API, DASHBOARD, useBankFixture } from '../harness/bankFixture';
import { rl } from '../harness/nodeParameters';
import { runNode } from '../harness/runNode';
import { reportFigures, sized } from './scale';
import type { Authentication } from '../../../nodes/common/actions/selectors';
import { authenticationsFor } from '../../../nodes/common/actions/selectors';

/**
 * Bad input, every operation: for each operation of the BaaS node (read from its description) and each field it
 * shows, generated invalid values arrive through expressions (as from a sheet) while every other field holds a
 * valid value. Requests that reached the bank, errors without the field's name and crashes must all be 0.
 */
const fx = useBankFixture();
const VALUES_PER_FIELD = sized(2, 6);

const properties = new Baas().nodeVersions[1].description.properties;

/** Valid values for every field, so that the one bad value is the only thing wrong. */
const VALID: IDataObject = {
	accountNumber: rl('0823000002', 'id'),
	sourceAccountNumber: rl('0823000002', 'id'),
	beneficiaryAccountNumber: '0823100001',
	bankCode: rl('000014', 'id'),
	amount: '10.00',
	narration: 'Bad input suite',
	referenceNumber: 'BAD-INPUT-1',
	transferType: 'inter',
	accountName: 'Ada Obi',
	email: 'ada@example.com',
	phone: '+2348031234567',
	bvn: '12345678901',
	url: 'https://example.com/hook',
	events: ['COLLECTION_SUCCESS'],
	name: 'Bad input role',
	permissionCodes: 'transfer.initiate',
	roleId: '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b',
	userId: '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b',
	firstName: 'Ada',
	lastName: 'Obi',
	status: 'inactive',
	returnAll: false,
	limit: 5,
	simplify: true,
	startDate: '2026-01-01',
	endDate: '2026-01-01',
	date: '2026-01-01',
};

/** The input item: a valid expected payment for Reconciliation → Match Expected Payments (other operations ignore it). */
const ITEMS = [{ account_number: '0823100001', reference: 'BAD-INPUT-1', amount: '10.00' }];

const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;
const LONG = 'x'.repeat(5000);

/**
 * Invalid values for a field of this type, each as an expression (fixed values are checked by n8n's editor).
 * Empty is invalid only where the field is required: an empty optional field or filter means "not set".
 */
function invalidValues(property: INodeProperties): unknown[] {
	switch (property.type) {
		case 'string':
			// Blank is "not set" for an optional field (Session → Verify then checks the credential's own token).
			// 12.5 is a valid amount (a number from a sheet); an amount field gets a float artefact instead.
			return [expr({ a: 1 }), expr(LONG), property.required ? expr('   ') : /amount$|tolerance$|dailyLimit$/i.test(property.name) ? expr(0.1 + 0.2) : expr(12.5), expr(['a']), expr(true), expr('\u0000<script>')];
		case 'options':
			// Empty is "no filter" for an optional list, so the wrong values are other words, other types, other case.
			return [expr('not-an-option'), expr(42), expr('ACTIVE'), expr({ a: 1 }), expr(true), expr('no such value')];
		case 'multiOptions':
			return [expr(['NOT_AN_EVENT']), expr('COLLECTION_SUCCESS,NOPE'), expr([]), expr(42), expr([1]), expr(null)];
		case 'boolean':
			return [expr('maybe'), expr(2), expr({}), expr('yes please'), expr([true]), expr('on')];
		case 'number':
			return [expr(-5), expr('abc'), expr(0), expr(1.5), expr({}), expr(Number.MAX_SAFE_INTEGER * 4)];
		case 'resourceLocator':
			return [rl(expr('12'), 'id'), rl(expr('abcdefghij'), 'id'), rl(expr(property.required ? '' : '08230000021'), 'id'), rl(expr({ a: 1 }), 'id'), rl(expr(LONG), 'id'), rl(expr(12), 'id')];
		default:
			return [];
	}
}

type Condition = Record<string, Array<string | number | boolean | undefined>>;

function shown(property: INodeProperties, params: IDataObject): boolean {
	const show = (property.displayOptions?.show ?? {}) as Condition;
	const hide = (property.displayOptions?.hide ?? {}) as Condition;
	const value = (key: string) => params[key] as string | number | boolean | undefined;
	return (
		Object.entries(show).every(([key, allowed]) => allowed.includes(value(key))) &&
		!Object.entries(hide).some(([key, denied]) => denied.includes(value(key)))
	);
}

interface Operation {
	authentication: string;
	resource: string;
	operation: string;
}

function operations(): Operation[] {
	const found: Operation[] = [];
	for (const authentication of ['apiClient', 'dashboardUser']) {
		const resourceSelector = properties.find((p) => p.name === 'resource' && shown(p, { authentication }))!;
		for (const { value: resource } of resourceSelector.options as Array<{ value: string }>) {
			// A resource only one API offers shows no operations to the other authentication.
			const operationSelector = properties.find((p) => p.name === 'operation' && shown(p, { authentication, resource }));
			if (!operationSelector) continue;
			for (const { value: operation } of operationSelector.options as Array<{ value: string }>) {
				// The Operation list shows every operation of a resource; only those the authentication's API offers take input.
				if (authenticationsFor(resource, operation).includes(authentication as Authentication)) found.push({ authentication, resource, operation });
			}
		}
	}
	return found;
}

/** A field to spoil: a top-level field, or one option of a collection (set alone in it). */
interface Target {
	label: string;
	displayName: string;
	property: INodeProperties;
	parameters: (value: unknown) => IDataObject;
}

function targets(op: Operation): Target[] {
	const base: IDataObject = { ...op };
	const fields = properties.filter((p) => !['authentication', 'resource', 'operation'].includes(p.name) && shown(p, { ...VALID, ...base }));
	for (const field of fields) if (VALID[field.name] !== undefined) base[field.name] = VALID[field.name];
	const list: Target[] = [];
	for (const field of fields) {
		if (field.type === 'collection') {
			for (const option of (field.options ?? []) as INodeProperties[]) {
				list.push({ label: `${field.name}.${option.name}`, displayName: option.displayName, property: option, parameters: (value) => ({ ...base, [field.name]: { [option.name]: value } as IDataObject }) });
			}
		} else {
			list.push({ label: field.name, displayName: field.displayName, property: field, parameters: (value) => ({ ...base, [field.name]: value as IDataObject }) });
		}
	}
	return list;
}

test('invalid values in every field of every operation: none reaches the bank, every error names its field, nothing crashes', async () => {
	let cases = 0;
	let reached = 0;
	let unnamed = 0;
	let crashes = 0;
	let accepted = 0;
	const problems: string[] = [];
	for (const op of operations()) {
		for (const target of targets(op)) {
			for (const value of invalidValues(target.property).slice(0, VALUES_PER_FIELD)) {
				cases++;
				const before = fx.bank.requests().length;
				const run = await runNode(fx.credentials, {
					parameters: target.parameters(value),
					credentials: op.authentication === 'apiClient' ? API : DASHBOARD,
					items: ITEMS,
				});
				const where = `${op.resource}.${op.operation} (${op.authentication}) ${target.label} = ${JSON.stringify(value).slice(0, 60)}`;
				const sent = fx.bank.requests().length - before;
				if (!run.error) {
					accepted++;
					if (sent > 0) {
						reached++;
						problems.push(`reached the bank: ${where}`);
					}
					continue;
				}
				if (sent > 0) {
					reached++;
					problems.push(`reached the bank: ${where}: ${run.error.message}`);
				}
				if (!['NodeOperationError', 'NodeApiError'].includes(String(run.error.name))) {
					crashes++;
					problems.push(`crash ${run.error.name}: ${where}: ${run.error.message}`);
				} else if (!String(run.error.message).includes(target.displayName)) {
					unnamed++;
					problems.push(`no field name: ${where}: ${run.error.message}`);
				}
			}
		}
	}
	reportFigures('bad-input', { operations: operations().length, cases, refused: cases - accepted, reached_bank: reached, errors_without_field: unnamed, crashes });
	expect(problems).toEqual([]);
}, sized(120_000, 900_000));
