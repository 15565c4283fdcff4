import { generate } from './test/support/pollFuzz/history';
import { runHistory } from './test/support/pollFuzz/driver';
import { leastRequestsFor } from './nodes/BaasPollTrigger/settings';
(async () => {
  const rows: any[] = [];
  for (let s = 1; s <= 1000; s++) {
    const h = generate(s, 'documented');
    const o = await runHistory(h);
    rows.push({ s, rules: [...new Set(o.violations.map(v => v.rule))], cap: h.pageCap === undefined ? 'none' : h.pageCap === 1 ? '1' : h.pageCap <= 10 ? '2-10' : h.pageCap < 100 ? '11-99' : '100+',
      least: h.settings.requestBudget === leastRequestsFor(h.settings.events) ? 'least' : 'more', order: h.order, start: h.settings.startFromMs !== undefined ? 'startFrom' : 'none', clock: h.offset0Ms > 0 ? 'ahead' : h.offset0Ms < 0 ? 'behind' : 'zero', quota: h.quotaPerMinute ? 'quota' : 'noquota' });
  }
  for (const key of ['cap', 'least', 'order', 'start', 'clock', 'quota']) {
    const g: Record<string, [number, number]> = {};
    for (const r of rows) { const k = r[key]; g[k] ??= [0, 0]; g[k][0]++; if (r.rules.length) g[k][1]++; }
    console.log(key, Object.entries(g).map(([k, [n, b]]) => `${k} ${b}/${n}`).join('  '));
  }
  const rules: Record<string, Record<string, number>> = {};
  for (const r of rows) for (const rule of r.rules) { rules[rule] ??= {}; rules[rule][r.cap] = (rules[rule][r.cap] ?? 0) + 1; }
  console.log(rules);
  console.log('non-cap-1 missing seeds', rows.filter(r => r.cap !== '1' && r.rules.includes('missing after the drain')).map(r => r.s).slice(0, 15).join(' '));
  console.log('non-cap-1 pending seeds', rows.filter(r => r.cap !== '1' && r.rules.includes("pending transfer's outcome not emitted")).map(r => r.s).slice(0, 15).join(' '));
  console.log('order seeds', rows.filter(r => r.rules.includes("older record listed before a newer one was emitted came later")).map(r => `${r.s}(${r.cap})`).slice(0, 15).join(' '));
  console.log('reversal seeds', rows.filter(r => r.rules.includes("reversal not reported")).map(r => `${r.s}(${r.cap})`).slice(0, 15).join(' '));
  console.log('twice seeds', rows.filter(r => r.rules.includes("emitted twice")).map(r => `${r.s}(${r.cap},${r.start})`).slice(0, 15).join(' '));
  console.log('history seeds', rows.filter(r => r.rules.includes("history emitted")).map(r => `${r.s}(${r.clock})`).slice(0, 25).join(' '));
})();
