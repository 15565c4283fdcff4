import { LINES } from '../../scripts/n8n/paths';
import { describeExamples } from './support/examplesScenario';

// Its own port (BAAS_E2E_PORT_BASE + 41), clear of the other e2e files' n8n instances.
describeExamples(LINES['1'], Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 41);
