import { LINES } from '../../scripts/n8n/paths';
import { describeLine } from './support/scenario';

// BAAS_E2E_PORT_BASE moves every port of the suite, so two clones can run it side by side.
describeLine(LINES['1'], Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 11);
