import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readOsra } from '../../../worker/chemistry/enlarge.js';
import type { OsraStructure } from '../../../worker/chemistry/osra.js';
import { heavyAtoms, plausibleStructure } from '../../../worker/chemistry/structures.js';
import { canonicalize } from '../../../worker/chemistry/open-babel.js';
import { DEV_KINDS, renderDevDistractors } from './dev-distractors.js';
import { NCI_SMILES } from './render.js';

/**
 * How regular the bonds of OSRA's readings are (bondLengths, osra.ts), on development images only:
 * NCI molecules from between the evaluation's (a third of the way into each of its strides), drawn
 * by RDKit at 150 and 300 dpi (also with abbreviations, whose expanded atoms OSRA places itself), and the development distractors (dev-distractors.ts). Prints, for
 * each reading that passes the rest of the rule (plausibleStructure), the ratio of its longest
 * bond to its shortest, and whether it is the molecule drawn. For setting MAX_BOND_LENGTH_RATIO
 * (structures.ts) without the evaluation's images.
 * Usage: npx tsx models/eval/chem/dev-bonds.ts [--molecules N] [--per-kind N]
 */

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const dir = join(import.meta.dirname, '..', '.cache', 'chem', 'dev-bonds');
await mkdir(dir, { recursive: true });
const rows = (await readFile(NCI_SMILES, 'utf8'))
  .split('\n')
  .map((l) => l.split('\t'))
  .filter((r) => r[0] && !r[0].includes('.') && heavyAtoms(r[0]).length >= 5 && heavyAtoms(r[0]).length <= 35);
const count = arg('molecules', 40);
const stride = Math.floor(rows.length / 150); // the evaluation's stride (render.ts pickMolecules)
const picked = Array.from({ length: count }, (_, k) => rows[Math.floor(stride / 3) + Math.floor((k * rows.length) / count / stride) * stride]!);
const images: { path: string; answer?: string }[] = [];
for (const dpi of [150, 300]) {
  const out = join(dir, `rdkit-${dpi}`);
  await mkdir(out, { recursive: true });
  const list = join(dir, 'molecules.tsv');
  await writeFile(list, picked.map(([s, id]) => `dev-${id}\t${s}\n`).join(''));
  const abbreviated = join(dir, `rdkit-abbreviated-${dpi}`);
  await mkdir(abbreviated, { recursive: true });
  await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'render_rdkit.py'), list, out, String(dpi)]);
  await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'render_rdkit.py'), list, abbreviated, String(dpi), 'abbreviations']);
  for (const [s, id] of picked) {
    const answer = (await canonicalize(s!))?.smiles;
    images.push({ path: join(out, `dev-${id}.png`), answer });
    const drawn = join(abbreviated, `dev-${id}.png`);
    if (
      await readFile(drawn).then(
        () => true,
        () => false,
      )
    )
      images.push({ path: drawn, answer });
  }
  for (const { path } of await renderDevDistractors(dir, arg('per-kind', 4), dpi)) images.push({ path });
}
const ratio = (s: OsraStructure) => (s.bondLengths?.length ? s.bondLengths.at(-1)! / Math.max(s.bondLengths[0]!, 1e-3) : NaN);
for (const img of images) {
  const { first, enlarged } = await readOsra(await readFile(img.path), { cpuSeconds: 60 });
  for (const [when, readings] of [
    ['as is', first.structures],
    ['enlarged', enlarged?.run.structures ?? []],
  ] as const)
    for (const s of readings.filter(plausibleStructure)) {
      const right = img.answer && (await canonicalize(s.smiles))?.smiles === img.answer;
      console.log([img.answer ? (right ? 'molecule-right' : 'molecule-wrong') : 'distractor', when, ratio(s).toFixed(2), s.smiles, img.path].join('\t'));
    }
}
console.log(`${images.length} images; kinds ${DEV_KINDS.join(', ')}`);
