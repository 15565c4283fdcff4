import { LINES } from '../../scripts/n8n/paths';
import { describeLine } from './support/scenario';

describeLine(LINES['1'], 5711);
