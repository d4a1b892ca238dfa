// scratch (helper N): print merge groups with their parts
import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPgm } from './models/eval/pgm.js';
import { binarise } from './worker/engine/math/image/binarise.js';
import { connectedComponents } from './worker/engine/math/image/components.js';
import { mergeComponents } from './worker/engine/math/image/merge.js';
const cache = './models/eval/.cache/';
const key = readdirSync(cache).find((d) => !d.includes('partial') && !d.endsWith('.json'))!;
const index = JSON.parse(await readFile(join(cache, key, 'index.json'), 'utf8'));
const [id, x0, x1] = process.argv.slice(2);
const item = index.formulas.find((f: any) => f.formula.id === id);
const img = await readPgm(join(cache, key, item.crops[process.env.DPI ?? '150'].path));
const map = connectedComponents(binarise(img));
for (const g of mergeComponents(map)) {
  if (g.box.x1 < +x0 || g.box.x0 > +x1) continue;
  console.log(g.rule ? 'RULE' : 'grp ', JSON.stringify(g.box), g.parts.map((c) => `${JSON.stringify(c.box)}a${c.area}`).join(' '));
}
const bin = binarise(img);
for (let y = 0; y < img.height; y++) { let s = ''; for (let x = +x0; x < Math.min(+x1, img.width); x++) s += map.labels[y * img.width + x] ? '#' : '.'; console.log(String(y).padStart(3), s); }
