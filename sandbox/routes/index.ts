/** Every contract route, in one table (paths exactly as the bank documents them, and the README's assumptions where it does not). */
import type { RouteDef } from '../http/routeDefinition';
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
