import type { InkMask } from '../engine/math/image/binarise.js';
import type { Band } from './bands.js';

/**
 * Stacked formulas (a fraction, the quadratic formula, a fraction under a root) leave blank rows
 * between their parts, so cutting a page into ink rows would read a numerator, a bar and a
 * denominator as three lines. A fraction bar is what holds them together: a thin horizontal rule
 * with an operand right above it and one right below it, lying within its columns, the wider of
 * the two spanning it end to end (a bar is exactly as long as its wider operand). Rows that meet
 * around such a bar are one region. A table's rule is not a bar (its cells stand a column
 * padding clear of its ends), nor is an equals sign (its other stroke is a rule, not an operand),
 * nor a stroke of a glyph: a serif, the top of an arch, a crossbar, each touching the rest of
 * its glyph. A bar stands apart from its operands (TeX leaves at least its thickness clear above
 * and below it). Length does not tell them apart: at 200 dpi a text line's serifs are 6–13 px,
 * 0.4–0.5 of the letters beside them, and a bar over a lone `l` is as short beside its operand.
 */

export interface Rule {
  y0: number;
  /** Exclusive. */
  y1: number;
  x0: number;
  /** Exclusive. */
  x1: number;
}

/** Shortest ink run, in pixels, taken for a rule. */
export const MIN_RULE_PX = 6;
/** A rule is at most this share of its length thick (and never under 2 rows allowed). */
const MAX_RULE_THICKNESS = 1 / 6;
/** An operand's ends may stand this share of its height off the bar's ends (glyph side bearings). */
export const BAR_END_SLACK = 0.15;
/** Columns beyond a bar's ends still searched for its operands. */
const EDGE_PX = 3;
/** An operand in a neighbouring row is at most this many heights of the taller operand above or below the bar. */
export const OPERAND_GAP = 1;
/** A bar has ink right above or right below it along at most this share of its length (an operand's stroke grazing it). */
export const BAR_TOUCH_SHARE = 1 / 3;

const height = (b: Band) => b.y1 - b.y0;
const width = (b: Band) => b.x1 - b.x0;

/** Thin horizontal runs of ink inside `band`: runs of MIN_RULE_PX or more, continued over rows while their ends stay put. */
export function rulesIn(mask: InkMask, band: Band): Rule[] {
  const done: Rule[] = [];
  let open: Rule[] = [];
  for (let y = band.y0; y < band.y1; y++) {
    const next: Rule[] = [];
    const row = y * mask.width;
    for (let x = band.x0; x < band.x1;) {
      if (!mask.data[row + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < band.x1 && mask.data[row + x]) x++;
      if (x - start < MIN_RULE_PX) continue;
      const same = open.find((r) => Math.abs(r.x0 - start) <= 1 && Math.abs(r.x1 - x) <= 1);
      if (same) {
        open = open.filter((r) => r !== same);
        next.push({ ...same, y1: y + 1 });
      } else next.push({ y0: y, y1: y + 1, x0: start, x1: x });
    }
    done.push(...open);
    open = next;
  }
  done.push(...open);
  return done.filter((r) => height(r) <= Math.max(2, MAX_RULE_THICKNESS * width(r)));
}

/** The box of the ink in rows [y0, y1) and columns [x0, x1), or null. */
function inkBox(mask: InkMask, y0: number, y1: number, x0: number, x1: number): Band | null {
  let box: Band | null = null;
  for (let y = Math.max(0, y0); y < Math.min(mask.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(mask.width, x1); x++) {
      if (!mask.data[y * mask.width + x]) continue;
      if (!box) box = { y0: y, y1: y + 1, x0: x, x1: x + 1 };
      else box = { y0: Math.min(box.y0, y), y1: y + 1, x0: Math.min(box.x0, x), x1: Math.max(box.x1, x + 1) };
    }
  }
  return box;
}

/** Blank columns, as a share of a box's height, that part two cells of a table row. */
export const CELL_GAP = 1.2;

/** Whether the ink of `box` has a run of blank columns CELL_GAP times its height wide. */
function cells(mask: InkMask, box: Band): boolean {
  let blank = 0;
  for (let x = box.x0; x < box.x1; x++) {
    blank = inkBox(mask, box.y0, box.y1, x, x + 1) ? 0 : blank + 1;
    if (blank >= CELL_GAP * height(box)) return true;
  }
  return false;
}

/**
 * The neighbours of band `i` that a fraction bar inside it holds (-1 above, +1 below), or null
 * when it holds none. Each operand is either the band's own ink on that side of the bar within
 * its columns, or the whole neighbouring band, when that lies within them.
 */
function heldByBar(mask: InkMask, bands: Band[], i: number): number[] | null {
  const band = bands[i]!;
  for (const rule of rulesIn(mask, band)) {
    if (!standsApart(mask, rule)) continue;
    const thick = height(rule);
    // Operands are looked for in the bar's columns and a little beyond (glyph side bearings); ink
    // running on past that margin belongs to something beside the fraction, not over it.
    const [x0, x1] = [rule.x0 - EDGE_PX, rule.x1 + EDGE_PX];
    const operand = (side: -1 | 1): { box: Band; neighbour: boolean; gap: number } | null => {
      const own = side < 0 ? inkBox(mask, band.y0, rule.y0, x0, x1) : inkBox(mask, rule.y1, band.y1, x0, x1);
      if (own) return { box: own, neighbour: false, gap: 0 };
      const n = bands[i + side];
      if (!n) return null;
      const box = inkBox(mask, n.y0, n.y1, x0, x1);
      if (!box || inkBox(mask, n.y0, n.y1, x0 - 1, x0) || inkBox(mask, n.y0, n.y1, x1, x1 + 1)) return null;
      return { box, neighbour: true, gap: side < 0 ? rule.y0 - box.y1 : box.y0 - rule.y1 };
    };
    const [up, down] = [operand(-1), operand(1)];
    if (!up || !down || !(up.neighbour || down.neighbour)) continue;
    // Measured against the taller operand: a short one (`r`, `n`: x-height letters) stands as far off as a tall one.
    const reach = OPERAND_GAP * Math.max(height(up.box), height(down.box));
    if (up.gap > reach || down.gap > reach) continue;
    // A table's rows: a rule of the bar's length closing the row on its far side, or cells a column gap apart.
    const closed = (box: Band, side: -1 | 1) =>
      rulesIn(mask, box).some((r) => Math.abs(r.x0 - rule.x0) <= 1 && Math.abs(r.x1 - rule.x1) <= 1 && (side < 0 ? r.y0 <= box.y0 + 1 : r.y1 >= box.y1 - 1));
    if (closed(up.box, -1) || closed(down.box, 1) || cells(mask, up.box) || cells(mask, down.box)) continue;
    // An operand is ink of its own, not the other stroke of an equals sign.
    const minHeight = Math.max(3, 2.5 * thick);
    if (height(up.box) < minHeight || height(down.box) < minHeight) continue;
    const wider = width(up.box) >= width(down.box) ? up.box : down.box;
    const slack = Math.max(2, Math.round(BAR_END_SLACK * height(wider)));
    if (Math.abs(wider.x0 - rule.x0) > slack || Math.abs(wider.x1 - rule.x1) > slack) continue;
    return [...(up.neighbour ? [-1] : []), ...(down.neighbour ? [1] : [])];
  }
  return null;
}

/** Whether the rows right above and right below `rule` hold ink along at most BAR_TOUCH_SHARE of its length. */
function standsApart(mask: InkMask, rule: Rule): boolean {
  let above = 0;
  let below = 0;
  for (let x = rule.x0; x < rule.x1; x++) {
    if (rule.y0 > 0 && mask.data[(rule.y0 - 1) * mask.width + x]) above++;
    if (rule.y1 < mask.height && mask.data[rule.y1 * mask.width + x]) below++;
  }
  return Math.max(above, below) <= BAR_TOUCH_SHARE * width(rule);
}

/** `bands` (top to bottom) with the rows each fraction bar holds together joined into one. */
export function joinStacks(mask: InkMask, bands: Band[]): Band[] {
  const out = bands.map((b) => ({ ...b }));
  for (let i = 0; i < out.length; i++) {
    const held = heldByBar(mask, out, i);
    if (!held) continue;
    const first = held.includes(-1) ? i - 1 : i;
    const last = held.includes(1) ? i + 1 : i;
    const group = out.slice(first, last + 1);
    out.splice(first, group.length, {
      y0: group[0]!.y0,
      y1: group.at(-1)!.y1,
      x0: Math.min(...group.map((b) => b.x0)),
      x1: Math.max(...group.map((b) => b.x1)),
    });
    // The joined band may hold another bar (a fraction inside a fraction): look at it again.
    i = first - 1;
  }
  return out;
}
