// scratch (helper N): print image symbols + parse for given formula ids
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readPgm } from './models/eval/pgm.js';
import { symbolsFromImage } from './worker/engine/math/image/symbols-from-image.js';
import { parseLayout } from './worker/engine/math/layout/index.js';
import { normaliseLatex } from './worker/engine/math/latex-normalise.js';
const cache = './models/eval/.cache/';
const { readdirSync } = await import('node:fs');
const key = readdirSync(cache).find((d) => !d.includes('partial'))!;
const index = JSON.parse(await readFile(join(cache, key, 'index.json'), 'utf8'));
const dpi = process.env.DPI ?? '150';
for (const id of process.argv.slice(2)) {
  const item = index.formulas.find((f: any) => f.formula.id === id);
  const img = await readPgm(join(cache, key, item.crops[dpi].path));
  const syms = await symbolsFromImage(img);
  console.log(id, item.formula.latex);
  for (const s of syms) console.log('  ', s.latex.padEnd(14), JSON.stringify(s.box), (s.confidence ?? 0).toFixed(2), (s.alternatives ?? []).map((a) => `${a.latex}:${a.confidence.toFixed(2)}`).join(' '));
  const r: any = await parseLayout(syms);
  console.log('  got ', normaliseLatex(r.latex), '\n  want', normaliseLatex(item.formula.latex));
}
