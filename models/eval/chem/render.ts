import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ENLARGE_BELOW_BOND_PX, MAX_ENLARGED_PIXELS, TARGET_BOND_PX } from '../../../worker/chemistry/enlarge.js';
import { canonicalize } from '../../../worker/chemistry/open-babel.js';
import { osraLists } from '../../../worker/chemistry/osra-lists.js';
import { OSRA_OUTPUT } from '../../../worker/chemistry/osra.js';
import { heavyAtoms } from '../../../worker/chemistry/structures.js';
import { DISTRACTOR_KINDS, type DistractorKind, distractorSvg } from './distractors.js';
import { type HeldoutKind, renderHeldout } from './heldout.js';

/**
 * The evaluation's images: molecules from the NCI sample RDKit ships (rdkit-data,
 * /usr/share/RDKit/Data/NCI/first_5K.smi) drawn by RDKit and by Open Babel, and the distractor
 * drawings, each at 150 and 300 dpi, under models/eval/.cache/chem/.
 */

const run = promisify(execFile);
export const NCI_SMILES = '/usr/share/RDKit/Data/NCI/first_5K.smi';
export const RESOLUTIONS = [150, 300] as const;
export const RENDERERS = ['rdkit', 'openbabel'] as const;
/** RDKit with its default abbreviations condensed into labels (Et, tBu, CO2Et, OMe, NO2, CF3, ...). */
export const ABBREVIATED = 'rdkit-abbreviated';
export type Renderer = (typeof RENDERERS)[number] | typeof ABBREVIATED;
/** Bond length of the drawings: 0.2 inch, about the ACS document style's. */
const BOND_INCH = 0.2;

export interface Molecule {
  id: string;
  /** As NCI lists it. */
  source: string;
  /** Open Babel's canonical SMILES: the answer. */
  canonical: string;
  /** Its standard InChI, for the comparison that forgives how charges and tautomers are drawn. */
  inchi?: string;
  /** Given stereo by RDKit (the NCI sample has none): drawn with wedges, hashes and E/Z geometry. */
  stereo?: boolean;
}

export interface EvalImage {
  path: string;
  dpi: number;
  /** A molecule (renderer and molecule), a distractor or a held-out distractor (its kind). */
  molecule?: Molecule;
  renderer?: Renderer;
  distractor?: DistractorKind;
  heldout?: HeldoutKind;
}

/**
 * `count` molecules taken at an even stride through the NCI list: one component, 5 to 35 heavy
 * atoms (drawings of a single compound, the size papers show), and parsed by Open Babel.
 */
async function usableRows(): Promise<string[][]> {
  const rows = (await readFile(NCI_SMILES, 'utf8'))
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((r) => r[0]);
  return rows.filter(([s]) => !s!.includes('.') && heavyAtoms(s!).length >= 5 && heavyAtoms(s!).length <= 35);
}

/**
 * The file caching OSRA's answers as `name`, keyed by the label lists OSRA is given
 * (osra-lists.ts), what it is asked to write (osra.ts) and when it reads an image again enlarged
 * (enlarge.ts): changing any starts a fresh cache instead of scoring stale readings.
 */
export async function osraCachePath(dir: string, name: string): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([await osraLists(), ENLARGE_BELOW_BOND_PX, TARGET_BOND_PX, MAX_ENLARGED_PIXELS, OSRA_OUTPUT]))
    .digest('hex')
    .slice(0, 8);
  return join(dir, `${name}-${key}.json`);
}

export async function pickMolecules(count: number): Promise<Molecule[]> {
  const usable = await usableRows();
  const stride = Math.max(1, Math.floor(usable.length / count));
  const out: Molecule[] = [];
  for (let i = 0; i < usable.length && out.length < count; i += stride) {
    const [source, id] = usable[i]!;
    const c = await canonicalize(source!);
    if (c) out.push({ id: `nci-${id}`, source: source!, canonical: c.smiles, inchi: c.inchi });
  }
  return out;
}

/**
 * `count` molecules with stereo: NCI molecules (from the other half of each stride) with unassigned
 * stereocentres or double bonds, given one stereoisomer by RDKit, kept when Open Babel's canonical
 * SMILES still holds it.
 */
export async function pickStereoMolecules(dir: string, count: number): Promise<Molecule[]> {
  if (count <= 0) return [];
  const usable = await usableRows();
  const stride = Math.max(1, Math.floor(usable.length / (8 * count)));
  const candidates = [];
  for (let i = Math.floor(stride / 2); i < usable.length; i += stride) candidates.push(usable[i]!);
  const list = join(dir, 'stereo-candidates.tsv');
  await writeFile(list, candidates.map(([s, id]) => `${id}\t${s}\n`).join(''));
  const { stdout } = await run('/usr/bin/python3', [join(import.meta.dirname, 'render_rdkit.py'), 'stereo', list], { maxBuffer: 16 * 1024 * 1024 });
  const out: Molecule[] = [];
  for (const row of stdout.split('\n').filter(Boolean)) {
    const [id, source] = row.split('\t');
    const c = await canonicalize(source!);
    if (c && /[@/\\]/.test(c.smiles)) out.push({ id: `nci-${id}-stereo`, source: source!, canonical: c.smiles, inchi: c.inchi, stereo: true });
    if (out.length === count) break;
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

/** Renders every image not yet in `dir`; returns the whole set, the held-out distractors last. */
export async function renderSet(dir: string, molecules: Molecule[], distractorsPerKind: number, heldoutPerKind: number): Promise<EvalImage[]> {
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
    // Abbreviated drawings exist only for molecules RDKit condensed a group of: drawn once, listed if there.
    const abbrevDir = join(dir, `${ABBREVIATED}-${dpi}`);
    if (!(await exists(join(abbrevDir, 'done')))) {
      await mkdir(abbrevDir, { recursive: true });
      const list = join(dir, `${ABBREVIATED}-${dpi}.tsv`);
      await writeFile(
        list,
        molecules
          .filter((m) => !m.stereo)
          .map((m) => `${m.id}\t${m.source}\n`)
          .join(''),
      );
      await run('/usr/bin/python3', [join(import.meta.dirname, 'render_rdkit.py'), list, abbrevDir, String(dpi), 'abbreviations']);
      await writeFile(join(abbrevDir, 'done'), '');
    }
    for (const m of molecules) {
      const path = join(abbrevDir, `${m.id}.png`);
      if (!m.stereo && (await exists(path))) images.push({ path, dpi, molecule: m, renderer: ABBREVIATED });
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
  for (const dpi of RESOLUTIONS) for (const { path, kind } of await renderHeldout(dir, heldoutPerKind, dpi)) images.push({ path, dpi, heldout: kind });
  return images;
}
