// scratch (helper N): list every image failure at one dpi
import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPgm } from './models/eval/pgm.js';
import { symbolsFromImage } from './worker/engine/math/image/symbols-from-image.js';
import { parseLayout } from './worker/engine/math/layout/index.js';
import { normaliseLatex } from './worker/engine/math/latex-normalise.js';
const cache = './models/eval/.cache/';
const key = readdirSync(cache).find((d) => !d.includes('partial') && !d.endsWith('.json'))!;
const index = JSON.parse(await readFile(join(cache, key, 'index.json'), 'utf8'));
const dpi = process.env.DPI ?? '150';
let ok = 0;
for (const item of index.formulas) {
  const img = await readPgm(join(cache, key, item.crops[dpi].path));
  const r: any = await parseLayout(await symbolsFromImage(img));
  const got = normaliseLatex(r.latex), want = normaliseLatex(item.formula.latex);
  if (got === want) ok++; else console.log(item.formula.id.padEnd(8), want.padEnd(60), got);
}
console.log('exact', ok, index.formulas.length);
