import { LINES } from '../../scripts/n8n/paths';
import { describePolling } from './support/polling';

// n8n 2.41 with its durable poll scheduler switched on. Its own port (BAAS_E2E_PORT_BASE + 24).
describePolling(LINES['2'], Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 24, { durableScheduler: true });
