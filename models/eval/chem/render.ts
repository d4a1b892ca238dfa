import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { canonicalize } from '../../../worker/chemistry/open-babel.js';
import { heavyAtoms } from '../../../worker/chemistry/structures.js';
import { DISTRACTOR_KINDS, type DistractorKind, distractorSvg } from './distractors.js';

/**
 * The evaluation's images: molecules from the NCI sample RDKit ships (rdkit-data,
 * /usr/share/RDKit/Data/NCI/first_5K.smi) drawn by RDKit and by Open Babel, and the distractor
 * drawings, each at 150 and 300 dpi, under models/eval/.cache/chem/.
 */

const run = promisify(execFile);
export const NCI_SMILES = '/usr/share/RDKit/Data/NCI/first_5K.smi';
export const RESOLUTIONS = [150, 300] as const;
export const RENDERERS = ['rdkit', 'openbabel'] as const;
export type Renderer = (typeof RENDERERS)[number];
/** Bond length of the drawings: 0.2 inch, about the ACS document style's. */
const BOND_INCH = 0.2;

export interface Molecule {
  id: string;
  /** As NCI lists it. */
  source: string;
  /** Open Babel's canonical SMILES: the answer. */
  canonical: string;
}

export interface EvalImage {
  path: string;
  dpi: number;
  /** A molecule (renderer and molecule) or a distractor (its kind). */
  molecule?: Molecule;
  renderer?: Renderer;
  distractor?: DistractorKind;
}

/**
 * `count` molecules taken at an even stride through the NCI list: one component, 5 to 35 heavy
 * atoms (drawings of a single compound, the size papers show), and parsed by Open Babel.
 */
export async function pickMolecules(count: number): Promise<Molecule[]> {
  const rows = (await readFile(NCI_SMILES, 'utf8'))
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((r) => r[0]);
  const usable = rows.filter(([s]) => !s!.includes('.') && heavyAtoms(s!).length >= 5 && heavyAtoms(s!).length <= 35);
  const stride = Math.max(1, Math.floor(usable.length / count));
  const out: Molecule[] = [];
  for (let i = 0; i < usable.length && out.length < count; i += stride) {
    const [source, id] = usable[i]!;
    const c = await canonicalize(source!);
    if (c) out.push({ id: `nci-${id}`, source: source!, canonical: c.smiles });
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

/** Renders every image not yet in `dir`; returns the whole set. */
export async function renderSet(dir: string, molecules: Molecule[], distractorsPerKind: number): Promise<EvalImage[]> {
  const images: EvalImage[] = [];
  for (const dpi of RESOLUTIONS) {
    const bondPx = BOND_INCH * dpi;
    const rdkitDir = join(dir, `rdkit-${dpi}`);
    const obDir = join(dir, `openbabel-${dpi}`);
    const otherDir = join(dir, `distractors-${dpi}`);
    await Promise.all([rdkitDir, obDir, otherDir].map((d) => mkdir(d, { recursive: true })));
    const missing = [];
    for (const m of molecules) if (!(await exists(join(rdkitDir, `${m.id}.png`)))) missing.push(m);
    if (missing.length) {
      const list = join(dir, `rdkit-${dpi}.tsv`);
      await writeFile(list, missing.map((m) => `${m.id}\t${m.source}\n`).join(''));
      await run('/usr/bin/python3', [join(import.meta.dirname, 'render_rdkit.py'), list, rdkitDir, String(dpi)]);
    }
    for (const m of molecules) {
      images.push({ path: join(rdkitDir, `${m.id}.png`), dpi, molecule: m, renderer: 'rdkit' });
      const obPath = join(obDir, `${m.id}.png`);
      // Open Babel fits the drawing into a square of -xp pixels; sized so its bonds come out near bondPx.
      const side = Math.round(bondPx * (2 + 1.4 * Math.sqrt(heavyAtoms(m.source).length)));
      if (!(await exists(obPath))) await run('obabel', [`-:${m.source}`, '-opng', '-xp', String(side), '-O', obPath]).catch(() => undefined);
      if (await exists(obPath)) images.push({ path: obPath, dpi, molecule: m, renderer: 'openbabel' });
    }
    for (const kind of DISTRACTOR_KINDS) {
      for (let i = 0; i < distractorsPerKind; i++) {
        const path = join(otherDir, `${kind}-${i}.png`);
        // SVG user units are CSS pixels (96 per inch); librsvg's density is per 72.
        if (!(await exists(path)))
          await sharp(Buffer.from(distractorSvg(kind, i)), { density: (dpi * 72) / 96 })
            .flatten({ background: '#ffffff' })
            .png()
            .toFile(path);
        images.push({ path, dpi, distractor: kind });
      }
    }
  }
  return images;
}
