import sharp from 'sharp';
import { type ChemicalStructure, type ChemistryOptions, smilesElement, smilesImage } from '../../core/chemistry.js';
import { readStructures } from './structures.js';
import { boxArea as area, INK_LEVEL } from './text-boxes.js';

/**
 * Whether a figure of a document page is a structure diagram, and its MMD when it is. The figure
 * is read by OSRA at CHEMISTRY_DPI; it counts as chemistry only when the structures OSRA reports
 * and structures.ts accepts cover most of the figure's ink: a plot whose tick labels OSRA turns
 * into a small "molecule" in a corner stays a figure. A figure OSRA cannot read (or is stopped on)
 * stays a figure too. Photographs, filled charts and shaded areas (more than MAX_INK_SHARE of the
 * ink box dark) are no line drawing and are not given to OSRA at all: structure drawings measure
 * 1 to 6 % in the evaluation's renders.
 */

/** OSRA reads 300 dpi renders best (its own default for scans). */
export const CHEMISTRY_DPI = 300;
/** Share of the figure's ink box the structures' boxes must cover. */
const MIN_INK_COVER = 0.5;
const MAX_INK_SHARE = 0.2;

type Box = ChemicalStructure['box'];

/** The box around every dark pixel of a PNG and how many dark pixels there are; null for a blank one. */
async function inkBox(png: Buffer): Promise<{ box: Box; pixels: number } | null> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1, pixels] = [info.width, info.height, -1, -1, 0];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! < INK_LEVEL) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        pixels++;
      }
  return x1 < 0 ? null : { box: { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }, pixels };
}

const clipTo = (b: Box, to: Box): Box => {
  const x = Math.max(b.x, to.x);
  const y = Math.max(b.y, to.y);
  return { x, y, width: Math.max(0, Math.min(b.x + b.width, to.x + to.width) - x), height: Math.max(0, Math.min(b.y + b.height, to.y + to.height) - y) };
};

/** Less time than this before a deadline is not worth starting OSRA for. */
export const MIN_OSRA_WALL_MS = 500;

/**
 * The structures a figure's PNG shows, left to right and top to bottom; [] when it is no structure
 * diagram, or when OSRA did not finish by `deadline` (Date.now() ms: the page's time) or within
 * its own limits.
 */
export async function figureStructures(png: Buffer, opts: ChemistryOptions, deadline?: number): Promise<ChemicalStructure[]> {
  const found = await inkBox(png);
  if (!found || found.pixels > MAX_INK_SHARE * area(found.box)) return [];
  const ink = found.box;
  const wallMs = deadline === undefined ? undefined : deadline - Date.now();
  if (wallMs !== undefined && wallMs < MIN_OSRA_WALL_MS) return [];
  const coversInk = (found: Array<{ box: Box }>) => found.reduce((s, st) => s + area(clipTo(st.box, ink)), 0) >= MIN_INK_COVER * area(ink);
  // A plot's or a table's few "molecules" are no chemistry at any scale: only a first reading that could be is read again enlarged.
  const { structures } = await readStructures(png, { inchi: opts.inchi, cpuSeconds: opts.cpuSeconds, wallMs, enlargeIf: coversInk });
  if (!structures.length || !coversInk(structures)) return [];
  return structures.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

/**
 * The MMD of a figure holding structures: their smiles elements (with InChI when asked), or with
 * include_chemistry_as_image the crop itself with the SMILES (several joined by '.') as alt text.
 */
export function structuresMmd(structures: ChemicalStructure[], opts: ChemistryOptions, link: string): string {
  if (opts.asImage) return smilesImage({ smiles: structures.map((s) => s.smiles).join('.') }, link);
  return structures.map((s) => smilesElement(s, opts.inchi)).join('\n\n');
}
