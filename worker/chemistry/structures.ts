import type { ChemicalStructure } from '../../core/chemistry.js';
import { restoreMissedCharges } from './charges.js';
import { readOsra, type ReadOsraOptions } from './enlarge.js';
import { normalizeNitro } from './nitro.js';
import { canonicalize } from './open-babel.js';
import type { OsraStructure } from './osra.js';
import { fourMemberedRings, parseSmiles } from './smiles-graph.js';
import { type Box, boxArea as area, boxOverlap as overlap, textBoxes } from './text-boxes.js';

/**
 * Which things OSRA reports are chemical structures. OSRA is eager: it turns an axis and its tick
 * labels, a labelled triangle or a hexagon of a geometry figure into "molecules". A reading counts
 * as a structure only when
 * - Open Babel accepts it, with no atom OSRA could not name (`*`);
 * - OSRA's own score reaches MIN_OSRA_SCORE (noise scores below 0, clean drawings 1 to 4);
 * - it has MIN_HEAVY_ATOMS heavy atoms, and unless it holds a heteroatom, at least one ring
 *   and MIN_CARBON_ONLY_ATOMS atoms (a bare carbon chain or triangle is what axes and polygons give);
 * - unless it holds a heteroatom, fewer than MAX_CARBON_ONLY_FOUR_RINGS four-membered rings: the
 *   bars of a bar chart and the cells of a grid are rectangles, which OSRA reads as a chain of
 *   cyclobutanes; of the 4,999 NCI compounds the evaluation draws from, none is carbon-only with
 *   even one (cubane and the ladderanes, which it refuses, stay figures: the safe failure);
 * - its bond length is plausible for a drawing of this size (bonds of at least MIN_BOND_PX pixels);
 * - its bonds are regular: a structure diagram draws every bond about the same length, where
 *   OSRA's assemblies of other drawings join strokes of any length (a triangle's sides with the
 *   strokes of its vertex letters). Its longest bond is at most MAX_BOND_LENGTH_RATIO times its
 *   shortest, in OSRA's coordinates (osra.ts bondLengths), where the atoms OSRA adds for labels
 *   such as OH or nDec sit at bonds of its own unit length;
 * - its box is no longer than its atoms can reach: n atoms joined by bonds of length L span at
 *   most (n - 1) L, MAX_SPAN_PER_BOND allowing for labels (a rounded flow-chart box OSRA reads as
 *   a benzene ring is four times wider than a ring's bonds allow);
 * - with the image at hand, it lies in no closed outline with writing inside (text-boxes.ts: OSRA
 *   reads letters as bonds) and holds fewer than MAX_TEXT_BOXES of them, covering less than
 *   MAX_TEXT_BOX_SHARE of its box. A flow-chart box OSRA reads as a ring is itself one; a
 *   labelled graph of circled letters holds several; a structure diagram none (its labels sit at
 *   the ends of bonds, not inside rings), or at most one small one where a hydrogen label falls
 *   inside a bridged ring.
 * The thresholds come from the evaluation in models/eval/chem (RDKit and Open Babel renders at 150
 * and 300 dpi against plots, geometry, tables and circuits drawn in SVG); see its README.
 */

export const MIN_OSRA_SCORE = 0.6;
export const MIN_HEAVY_ATOMS = 3;
export const MIN_CARBON_ONLY_ATOMS = 6;
export const MAX_CARBON_ONLY_FOUR_RINGS = 2;
export const MIN_BOND_PX = 8;
/**
 * Longest bond over the shortest in one reading. Set on development drawings (models/eval/chem/dev-bonds.ts):
 * OSRA's right readings of 40 NCI molecules drawn by RDKit reached 2.2, its wrong ones 4.4; the
 * triangle it read as a spiro ring system, 176.
 */
export const MAX_BOND_LENGTH_RATIO = 6;
/** Largest box side per bond of the longest possible chain; the evaluation's molecules reach 1.06. */
export const MAX_SPAN_PER_BOND = 1.1;
/** Text boxes inside a reading that make it a diagram of words, by count and by share of its box. */
export const MAX_TEXT_BOXES = 2;
export const MAX_TEXT_BOX_SHARE = 0.25;
/** The score at which confidence reaches 1: OSRA scores a clean drawing about 2 and more. */
const SURE_OSRA_SCORE = 3;

export interface ReadStructuresOptions extends ReadOsraOptions {
  /** Add InChI and InChIKey. @defaultValue false */
  inchi?: boolean;
}

export interface StructuresRead {
  structures: ChemicalStructure[];
  /** Set when OSRA was stopped at its limit or failed: the image is then read without chemistry. */
  stopped?: string;
}

/** Heavy atoms of a SMILES: bracket atoms, and the organic subset outside brackets (two-letter Cl, Br first). */
export function heavyAtoms(smiles: string): string[] {
  const atoms: string[] = [];
  const re = /\[([^\]]+)\]|Cl|Br|[BCNOPSFI]|[cnops]/g;
  for (const m of smiles.matchAll(re)) {
    const element = m[1] ? /^\d*([A-Z][a-z]?|[a-z]{1,2})/.exec(m[1])?.[1] : m[0];
    if (element && element !== 'H') atoms.push(element);
  }
  return atoms;
}

/** Whether OSRA's reading looks like a molecule rather than the lines of some other drawing. */
export function plausibleStructure(s: OsraStructure): boolean {
  if (s.smiles.includes('*') || s.score < MIN_OSRA_SCORE || s.bondLengthPx < MIN_BOND_PX) return false;
  if (s.bondLengths?.length && s.bondLengths.at(-1)! > MAX_BOND_LENGTH_RATIO * s.bondLengths[0]!) return false;
  const atoms = heavyAtoms(s.smiles);
  if (atoms.length < MIN_HEAVY_ATOMS) return false;
  if (Math.max(s.box.width, s.box.height) > MAX_SPAN_PER_BOND * (atoms.length - 1) * s.bondLengthPx) return false;
  if (atoms.some((a) => a.toUpperCase() !== 'C')) return true;
  if (!/\d/.test(s.smiles.replace(/\[[^\]]*\]/g, '')) || atoms.length < MIN_CARBON_ONLY_ATOMS) return false;
  const graph = parseSmiles(s.smiles);
  return graph === null || fourMemberedRings(graph.atoms) < MAX_CARBON_ONLY_FOUR_RINGS;
}

/**
 * Whether closed outlines with writing inside (text-boxes.ts) fill the reading's box (a diagram of
 * words), or hold it (OSRA read the letters of a word in a box as bonds): no molecule either way.
 */
export function enclosesText(reading: Box, boxes: Box[]): boolean {
  if (boxes.some((b) => overlap(b, reading) >= 0.5 * area(reading))) return true;
  const inside = boxes.filter((b) => overlap(b, reading) >= 0.5 * area(b));
  return inside.length >= MAX_TEXT_BOXES || inside.reduce((sum, b) => sum + area(b), 0) >= MAX_TEXT_BOX_SHARE * area(reading);
}

/** OSRA's score as a confidence in [0,1]: 0 at the acceptance threshold, 1 at SURE_OSRA_SCORE. */
export function structureConfidence(score: number): number {
  return Math.round(Math.max(0, Math.min(1, (score - MIN_OSRA_SCORE) / (SURE_OSRA_SCORE - MIN_OSRA_SCORE))) * 1000) / 1000;
}

/**
 * The structures among OSRA's readings: the plausible ones (plausibleStructure) that, given the
 * image OSRA read, enclose no writing (enclosesText), with the charges OSRA missed on N and O
 * (charges.ts) and nitro groups written one way (nitro.ts), canonicalised by Open Babel; with `inchi`, their InChI and InChIKey.
 */
export async function acceptStructures(readings: OsraStructure[], inchi = false, image?: Buffer): Promise<ChemicalStructure[]> {
  return (await acceptReadings(readings, inchi, image)).map((a) => a.structure);
}

/** acceptStructures, each with OSRA's score of it. */
async function acceptReadings(readings: OsraStructure[], inchi: boolean, image?: Buffer): Promise<{ structure: ChemicalStructure; score: number }[]> {
  const accepted = [];
  const plausible = readings.filter(plausibleStructure);
  const boxes = image && plausible.length ? await textBoxes(image) : [];
  for (const s of plausible.filter((p) => !enclosesText(p.box, boxes))) {
    const molecule = await canonicalize(normalizeNitro(restoreMissedCharges(s.smiles)));
    if (!molecule) continue;
    const structure = {
      smiles: molecule.smiles,
      ...(inchi ? { inchi: molecule.inchi, inchikey: molecule.inchikey } : {}),
      confidence: structureConfidence(s.score),
      box: s.box,
    };
    accepted.push({ structure, score: s.score });
  }
  return accepted;
}

/**
 * The structures of an image OSRA read twice, as it is and enlarged (enlarge.ts): the enlarged
 * reading's accepted structures when it has any and OSRA scores its best at least as high as the
 * first reading's best accepted one, else the first's. A reading with an unnamed atom or a low
 * score is no reading, at either scale.
 */
export async function chooseStructures(
  first: OsraStructure[],
  enlarged: OsraStructure[] | undefined,
  inchi = false,
  image?: Buffer,
): Promise<ChemicalStructure[]> {
  const asIs = await acceptReadings(first, inchi, image);
  const larger = enlarged?.length ? await acceptReadings(enlarged, inchi, image) : [];
  const best = (accepted: { score: number }[]) => Math.max(-Infinity, ...accepted.map((a) => a.score));
  return (larger.length && best(larger) >= best(asIs) ? larger : asIs).map((a) => a.structure);
}

/** The structure diagrams of one PNG (read again enlarged when drawn small), canonicalised by Open Babel; OSRA's limits as given. */
export async function readStructures(png: Buffer, opts: ReadStructuresOptions = {}): Promise<StructuresRead> {
  const { first, enlarged } = await readOsra(png, opts);
  if (first.stopped) return { structures: [], stopped: first.message };
  return { structures: await chooseStructures(first.structures, enlarged?.run.structures, opts.inchi, png) };
}
