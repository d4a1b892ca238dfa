// scratch (helper N): print raw grey values
import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPgm } from './models/eval/pgm.js';
import { otsuThreshold } from './worker/engine/math/image/binarise.js';
const cache = './models/eval/.cache/';
const key = readdirSync(cache).find((d) => !d.includes('partial') && !d.endsWith('.json'))!;
const index = JSON.parse(await readFile(join(cache, key, 'index.json'), 'utf8'));
const [id, x0, x1, y0, y1] = process.argv.slice(2).map((v, i) => (i ? +v : v)) as any;
const item = index.formulas.find((f: any) => f.formula.id === id);
const img = await readPgm(join(cache, key, item.crops[process.env.DPI ?? '150'].path));
console.log('otsu', otsuThreshold(img));
for (let y = y0; y < y1; y++) { let s = String(y).padStart(3) + ' '; for (let x = x0; x < x1; x++) s += String(img.data[y * img.width + x]).padStart(4); console.log(s); }
