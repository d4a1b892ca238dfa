import type { PageLine, PageRecognition } from '../../page/model.js';
import { type ReadStructuresOptions, readStructures } from './structures.js';
import { boxOverlap as overlap } from './text-boxes.js';

/**
 * Structure diagrams in a /v3/text image (include_smiles): OSRA looks over the whole image and
 * finds its structures with their boxes; each accepted one (structures.ts) replaces the text lines
 * read inside it (atom labels read as words, bonds read as dashes) with one line that carries the
 * structure, where the diagram stands, so the MMD writes `<smiles>` in reading order. When OSRA
 * is stopped at its limit the image is answered from its text and maths alone.
 */

/** A text line belongs to a structure when this share of its box lies inside the structure's. */
const INSIDE_SHARE = 0.6;

export async function addStructures(
  png: Buffer,
  page: PageRecognition,
  opts: ReadStructuresOptions = {},
): Promise<PageRecognition & { chemistryStopped?: string }> {
  const { structures, stopped } = await readStructures(png, opts);
  if (!structures.length) return stopped ? { ...page, chemistryStopped: stopped } : page;
  const inside = (l: PageLine) => structures.some((s) => overlap(l.box, s.box) >= INSIDE_SHARE * l.box.width * l.box.height);
  const lines: PageLine[] = page.lines.filter((l) => !inside(l));
  for (const s of structures) lines.push({ text: '', confidence: s.confidence, box: s.box, chemistry: s });
  lines.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  // The whole-image formula read no longer describes the image once part of it is a molecule.
  return { ...page, lines, formula: undefined };
}
