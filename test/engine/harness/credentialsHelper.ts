import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { BaasApi } from '../../../credentials/BaasApi.credentials';
import { BaasDashboardApi } from '../../../credentials/BaasDashboardApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	baasApi: new BaasApi(),
	baasDashboardApi: new BaasDashboardApi(),
};

interface StoredCredential {
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * Behaves as n8n's server CredentialsHelper does for these credentials: stores decrypted data by id,
 * applies the generic `authenticate` by resolving its expressions, and runs `preAuthentication` only
 * when the expirable field is empty or the engine reports it expired, saving what it returns.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	/** How often each credential id was (re-)authenticated, for assertions. */
	readonly preAuthenticationCalls = new Map<string, number>();

	/** How often the engine read (decrypted) a credential, as n8n's server would from its database. */
	decryptions = 0;

	add(id: string, type: string, data: ICredentialDataDecryptedObject) {
		this.store.set(id, { type, data: { ...data } });
	}

	stored(id: string): ICredentialDataDecryptedObject | undefined {
		return this.store.get(id)?.data;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const spec = credentialTypes[typeName]?.authenticate;
		const options = requestOptions as IHttpRequestOptions;
		// As n8n's server: a function is called with the decrypted data, a generic one has its expressions resolved.
		if (typeof spec === 'function') return await spec(credentials, options);
		if (!spec || typeof spec !== 'object' || spec.type !== 'generic') return options;
		const resolve = (value: unknown) =>
			workflow && node
				? workflow.expression.getSimpleParameterValue(node, value as string, 'internal', { $credentials: credentials }, undefined, '')
				: value;
		for (const [target, entries] of Object.entries(spec.properties)) {
			const bucket = ((options as unknown as Record<string, Record<string, unknown>>)[target] ??= {});
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) bucket[key] = resolve(value);
		}
		return options;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type?.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!type?.preAuthentication || expirable === undefined) return undefined;
		if (credentials[expirable.name] !== '' && credentials[expirable.name] !== undefined && !credentialsExpired) {
			return undefined;
		}
		const output = await type.preAuthentication.call(helpers, credentials);
		const details = node.credentials?.[typeName];
		if (details?.id) {
			this.preAuthenticationCalls.set(details.id, (this.preAuthenticationCalls.get(details.id) ?? 0) + 1);
			await this.updateCredentials(details, typeName, { ...credentials, ...output } as ICredentialDataDecryptedObject);
		}
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(helpers: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject, typeName: string) {
		return (await credentialTypes[typeName]?.preAuthentication?.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptions++;
		const found = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (!found || found.type !== type) throw new Error(`No ${type} credential with id ${nodeCredentials.id}`);
		return { ...found.data };
	}

	async updateCredentials(nodeCredentials: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		if (nodeCredentials.id) this.store.set(nodeCredentials.id, { type, data: { ...data } });
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}
