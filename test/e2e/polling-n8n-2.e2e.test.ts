import { LINES } from '../../scripts/n8n/paths';
import { describePolling } from './support/polling';

// Its own port (BAAS_E2E_PORT_BASE + 20), clear of the other e2e files' n8n instances.
describePolling(LINES['2'], Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 20);
