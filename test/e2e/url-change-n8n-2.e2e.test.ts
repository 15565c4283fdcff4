import { LINES } from '../../scripts/n8n/paths';
import { describeUrlChange } from './support/urlChange';

// Two ports of its own (BAAS_E2E_PORT_BASE + 30 and + 31), clear of the other e2e files' n8n instances.
const base = Number(process.env.BAAS_E2E_PORT_BASE ?? 5700);
describeUrlChange(LINES['2'], base + 30, base + 31);
