import { parseLayout } from './worker/engine/math/layout/index.js';
import { bigop, fenced, fn, frac, g, grid, row, sqrt, sub, sup, typeset } from './worker/engine/math/layout/test-typesetter.js';
const item = row('x=', frac(row('-b', '\\pm', sqrt(row(sup('b', '2'), '-', '4ac'))), '2a'), ',', sup('f', g('\\prime')), '(x)=', bigop(fn('lim'), 'h\\rightarrow0', null), frac('f(x+h)-f(x)', 'h'), ',', bigop('\\sum', 'i=1', 'n'), sub('a', 'i'), sup('x', 'i'), '=', fenced('(', grid([['1', '0'], ['0', '1']]), ')'));
for (const mode of ['pdf', 'image'] as const) {
  const s = typeset(item, mode, 4);
  for (let i = 0; i < 200; i++) parseLayout(s);
  const times: number[] = [];
  for (let i = 0; i < 500; i++) { const t = performance.now(); parseLayout(s); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(mode, s.length, 'symbols; median ms', times[250].toFixed(3), 'p99', times[495].toFixed(3), parseLayout(s).latex);
}
