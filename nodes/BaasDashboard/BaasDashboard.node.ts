import { actionNodeDescription, BaasActionNode } from '../common/actionNode';
import { propertiesFor } from '../common/apiDescription';

/**
 * The BaaS Dashboard node: the dashboard API (team, roles, statistics, settlements, name enquiry), signed in
 * as a dashboard user. One credential, so n8n's editor preselects one that can run the picked action.
 */
export class BaasDashboard extends BaasActionNode {
	constructor() {
		super(
			actionNodeDescription(
				{
					displayName: 'BaaS Dashboard',
					name: 'baasDashboard',
					icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
					group: ['transform'],
					description:
						'Banking-as-a-Service dashboard: team members, roles and permissions, account statistics, settlements and name enquiry',
				},
				{ version: 1, credentials: [{ name: 'baasDashboardApi', required: true }], properties: propertiesFor('dashboardUser') },
			),
		);
	}
}
