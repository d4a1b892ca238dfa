import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readOsra } from '../../../worker/chemistry/enlarge.js';
import type { OsraStructure } from '../../../worker/chemistry/osra.js';
import { chooseStructures } from '../../../worker/chemistry/structures.js';
import { DEV_KINDS, renderDevDistractors } from './dev-distractors.js';
import { osraCachePath, RESOLUTIONS } from './render.js';

/**
 * The development distractors (dev-distractors.ts) against the acceptance rule: how many of each
 * kind are reported as molecules, and which readings were accepted. For working on the rule; the
 * held-out set (heldout.ts) is left for `make eval-chem`.
 * Usage: npx tsx models/eval/chem/dev-run.ts [--per-kind N]
 */

const i = process.argv.indexOf('--per-kind');
const perKind = i > 0 ? Number(process.argv[i + 1]) : 8;
const cacheDir = join(import.meta.dirname, '..', '.cache', 'chem');
await mkdir(cacheDir, { recursive: true });
const rawPath = await osraCachePath(cacheDir, 'dev-osra');
/** An image's first reading (or why OSRA was stopped) and its enlarged one (enlarge.ts). */
const raw: Record<string, { read: OsraStructure[] | string; enlarged?: OsraStructure[] }> = JSON.parse(await readFile(rawPath, 'utf8').catch(() => '{}'));
const rows: string[] = ['| kind | ' + RESOLUTIONS.map((d) => `${d} dpi`).join(' | ') + ' |', '|---|' + RESOLUTIONS.map(() => '---|').join('')];
const counts = new Map<string, string[]>();
let [fp, total] = [0, 0];
for (const dpi of RESOLUTIONS) {
  for (const { path, kind } of await renderDevDistractors(cacheDir, perKind, dpi)) {
    if (raw[path] === undefined) {
      const { first, enlarged } = await readOsra(await readFile(path), { cpuSeconds: 60 });
      raw[path] = { read: first.stopped ? first.message : first.structures, enlarged: enlarged?.run.structures };
      await writeFile(rawPath, JSON.stringify(raw));
    }
    const { read, enlarged } = raw[path]!;
    const found = typeof read === 'string' ? [] : await chooseStructures(read, enlarged, false, await readFile(path));
    total++;
    if (found.length) {
      fp++;
      console.log(`FP ${path}: ${found.map((s) => s.smiles).join(' ')}`);
    }
    const key = `${kind}@${dpi}`;
    counts.set(key, [...(counts.get(key) ?? []), found.length ? 'x' : '.']);
  }
}
for (const kind of DEV_KINDS)
  rows.push(`| ${kind} | ${RESOLUTIONS.map((d) => `${(counts.get(`${kind}@${d}`) ?? []).filter((c) => c === 'x').length} / ${perKind}`).join(' | ')} |`);
console.log(`\n${rows.join('\n')}\n\nDevelopment distractors: ${fp} of ${total} reported as molecules.`);
