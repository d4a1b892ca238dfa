import type { PdfGlyph } from '../../engine/math/pdf/index.js';
import type { Box } from '../../engine/math/types.js';
import { type Group, union } from './display-growth.js';
import { anythingBetween } from './multline-rows.js';
import type { TextLine } from './text-layer.js';

/**
 * The rows of an align that each carry an equation number. Growing a display (display-growth.ts)
 * keeps two numbered rows apart unless they stand as close as rows of short symbols do, since two
 * equations in a row each carry a number too. Tall rows of fractions and limits leave more white
 * (asmejour's two rows of `\frac{1}{\sigma T^4}\int…`, 1.2 em), and there what tells one align from
 * two equations is its column: align sets its rows' relations at one x, while two equations are
 * each centred on their own.
 */

/** Relations this close (pt) stand in one column: TeX places them exactly, and only a coincidence of widths lines up two centred equations. */
const SHARED_RELATION_PT = 0.3;
/** Numbered rows this close (em, ink to ink) whose relations share a column are one align: two equations are parted by the display skips as well (over 2 em). */
const ROW_GAP_EM = 1.5;

/**
 * `groups` with numbered rows of one align joined; `numbered` holds the lines with an equation
 * number level with them, `relations` the page's relation glyphs (their pen positions are exact,
 * where a text line's glyph positions are spread over a run of text).
 */
export function joinNumberedAlignRows(groups: Group[], others: TextLine[], numbered: Set<TextLine>, relations: PdfGlyph[]): Group[] {
  const out = [...groups].sort((a, b) => a.box.y0 - b.box.y0);
  for (let i = 0; i + 1 < out.length; i++) {
    const [upper, lower] = [out[i]!, out[i + 1]!];
    if (!sameAlign(upper, lower, others, numbered, relations)) continue;
    out.splice(i, 2, { lines: [...upper.lines, ...lower.lines], box: union(upper.box, lower.box), parts: [...upper.parts, ...lower.parts] });
    i--;
  }
  return out;
}

function sameAlign(upper: Group, lower: Group, others: TextLine[], numbered: Set<TextLine>, relations: PdfGlyph[]): boolean {
  const em = Math.max(...upper.lines.map((l) => l.size));
  const gap = lower.box.y0 - upper.box.y1;
  if (gap < 0 || gap > ROW_GAP_EM * em || !overlap(upper.box, lower.box)) return false;
  if (!upper.lines.some((l) => numbered.has(l)) || !lower.lines.some((l) => numbered.has(l))) return false;
  const xs = relationXs(upper, relations);
  return relationXs(lower, relations).some((x) => xs.some((y) => Math.abs(x - y) <= SHARED_RELATION_PT)) && !anythingBetween(upper.box, lower.box, others);
}

const overlap = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1;

/** Where the group's relations start: the pens of the relation glyphs inside its lines' ink. */
function relationXs(group: Group, relations: PdfGlyph[]): number[] {
  const inside = (g: PdfGlyph, b: Box) => {
    const [cx, cy] = [(g.box.x0 + g.box.x1) / 2, (g.box.y0 + g.box.y1) / 2];
    return cx > b.x0 && cx < b.x1 && cy > b.y0 && cy < b.y1;
  };
  return relations.filter((g) => group.parts.some((b) => inside(g, b))).map((g) => g.x0);
}
