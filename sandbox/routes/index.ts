/** Every contract route, in one table (paths exactly as in the contract and ruling §4). */
import type { RouteDef } from '../router';
import { accountRoutes } from './accounts';
import { securityRoutes } from './security';
import { teamRoutes } from './team';
import { transactionRoutes } from './transactions';
import { transferRoutes } from './transfers';
import { webhookRoutes } from './webhooks';

export const contractRoutes: RouteDef[] = [
	...securityRoutes,
	...accountRoutes,
	...transactionRoutes,
	...transferRoutes,
	...webhookRoutes,
	...teamRoutes,
];
