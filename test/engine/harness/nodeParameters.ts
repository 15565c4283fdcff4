import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD } from './bankFixture';
import type { RunNodeOptions } from './runNode';

/** A resource locator value as the editor stores it. */
export const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

type Authentication = 'apiClient' | 'dashboardUser';

/** Run options with one credential and `fixed` parameters (e.g. resource and operation) under the test's own. */
function withCredential(authentication: Authentication, fixed: IDataObject) {
	return (parameters: IDataObject, extra: Partial<RunNodeOptions> = {}): RunNodeOptions => ({
		parameters: { authentication, ...fixed, ...parameters },
		credentials: authentication === 'apiClient' ? API : DASHBOARD,
		...extra,
	});
}

/** Run options with the API-client credential. */
export const asApiClient = (fixed: IDataObject) => withCredential('apiClient', fixed);

/** Run options with the dashboard-user credential. */
export const asDashboardUser = (fixed: IDataObject) => withCredential('dashboardUser', fixed);
