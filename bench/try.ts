import './lib/env';
import { printResult } from './lib/report';
import { returnAll } from './returnAll';

void (async () => {
	printResult(await returnAll({ transactions: Number(process.argv[2] ?? 20000), repetitions: 1 }));
})();
