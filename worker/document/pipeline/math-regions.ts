import type { PdfGlyph, PdfPageMath } from '../../engine/math/pdf/index.js';
import type { Box } from '../../engine/math/types.js';
import { findGutter } from '../../../page/processors/text-layer-columns.js';
import { isCodeLine } from '../../../page/processors/text-layer-code.js';
import { acrossGutter, contains, type Group, grow, intersects, lineBox, union } from './display-growth.js';
import { hasMath, hasWords, readsAsProse, RELATION_CHARS, wordyDisplay } from './line-content.js';
import { byHomeLine, centredInColumn, columnEdges, lineAround, mergeIntoLine, paragraphLines } from './math-inline.js';
import type { TextLine } from './text-layer.js';
import { textFontMaths } from './text-font-maths.js';
import { inlineFractionParts } from './inline-fraction-parts.js';
import { proseLeading, type ReadRows, splitAdjacentDisplays } from './adjacent-displays.js';
import { joinMultlineRows } from './multline-rows.js';
import { joinNumberedAlignRows } from './numbered-align-rows.js';
import { wrappedMathsLines } from './wrapped-maths-lines.js';
import { EQUATION_NUMBER, levelNumbers, movedNumber, splitEquationNumbers, tagText } from './equation-numbers.js';

/**
 * Finds display equations on a born-digital page. The text layer cuts a 2-D formula into several
 * lines (a numerator, the main line, a denominator, the limits of a sum, a tall delimiter whose
 * baseline sits above everything); this gathers them back into one region, using the ink of the
 * page's glyphs and rules, and sets an equation number at the right margin aside as its tag.
 */

/** An empty vertical strip this many ems wide cuts a display into pieces joined by a space (\quad or \qquad). */
const SPLIT_GAP_EM = 1.5;
/** A seed line narrower than this share of the text width can be a display (a full-width line is a paragraph's) — a wider one only where it is centred in its column. */
const MAX_DISPLAY_SHARE = 0.85;

export interface DisplayRegion {
  box: Box;
  /** The equation number without its parentheses, when one stands at the right of the display (or at its left, leqno). */
  tag?: string;
  /** A multi-line display's equation numbers, top to bottom, each with the y of its middle (the row it numbers). */
  rowTags?: Array<{ tag: string; y: number }>;
  /** Built from several text lines or around rules and tall glyphs: 2-D, so a display whatever its position. */
  stacked: boolean;
  /** Left to right, the parts of a display set apart by a wide space (\qquad); absent when it is one piece. */
  pieces?: Box[];
  /** Its equation numbers that stand inside its box (a multline's, at its last row's right): not maths to read. */
  numbers?: Box[];
  /** Centred in its column however wide (a display as wide as the text, with `\quad\text{and}\quad` between two formulas). */
  centred?: true;
}

/** A text line that stands for a whole display equation. */
export type DisplayLine = TextLine & { display: DisplayRegion };

export function isDisplayLine(line: TextLine): line is DisplayLine {
  return (line as Partial<DisplayLine>).display !== undefined;
}

/**
 * A display wherever it stands: 2-D, or with an equation number at its right. A flat unnumbered
 * formula on a line of its own is a display only where it is centred (the page layout's test): a
 * paragraph's line can be all maths. Numbered displays need not be centred (fleqn, a class's
 * \mathindent, a display inside a list).
 */
export function standsAlone(display: DisplayRegion): boolean {
  return display.stacked || display.tag !== undefined || display.rowTags !== undefined || display.centred === true;
}

/** The ink of the page's glyphs whose centres fall in `band`, or the band itself when none do. */
function inkOf(band: Box, byBaseline: PdfGlyph[]): Box {
  let box: Box | undefined;
  // Glyphs are sorted by baseline: start at the first that can be in the band. A radical sign
  // hangs below its baseline, which can lie above the band: it counts when its middle is inside.
  const from = band.y0 - (band.y1 - band.y0);
  let lo = 0;
  for (let hi = byBaseline.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if (byBaseline[mid].baseline < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < byBaseline.length && byBaseline[i].baseline <= band.y1 + 0.3 * byBaseline[i].size; i++) {
    const g = byBaseline[i];
    const cx = (g.box.x0 + g.box.x1) / 2;
    const hangsIn = g.baseline >= band.y0 || (g.box.y0 + g.box.y1) / 2 >= band.y0;
    if (hangsIn && cx >= band.x0 && cx <= band.x1) box = box ? union(box, g.box) : g.box;
  }
  return box ?? band;
}

/** The page's gutter, unless only equation numbers stand on one side of it: a column of numbers at the right margin is no column. */
function textGutter(lines: TextLine[], width: number): number | undefined {
  const gutter = findGutter(lines, width);
  const text = lines.filter((l) => !EQUATION_NUMBER.test(l.text.trim()));
  return gutter !== undefined && text.some((l) => l.x0 >= gutter) && text.some((l) => l.x1 <= gutter) ? gutter : undefined;
}

/**
 * Replaces the lines of each display equation with one DisplayLine spanning its ink, equation
 * number included as `display.tag`. Other lines pass through unchanged. `readRows` (the parser's
 * rows of a region) parts two displays set one under the other with nothing between them.
 */
export function groupDisplayMath(textLines: TextLine[], math: PdfPageMath, readRows?: ReadRows): TextLine[] {
  if (textLines.length === 0) return textLines;
  const lines = splitEquationNumbers(textLines, columnEdges(textLines, textGutter(textLines, math.width), true), (l) => hasMath(l) && !readsAsProse(l));
  const left = Math.min(...lines.map((l) => l.x0));
  const right = Math.max(...lines.map((l) => l.x1));
  const byBaseline = [...math.glyphs].sort((a, b) => a.baseline - b.baseline);
  const ink = new Map(lines.map((l) => [l, inkOf(lineBox(l), byBaseline)]));
  const tall = math.glyphs.filter((g) => g.font.family === 'extension').map((g) => g.box);
  const numbers = new Set(lines.filter((l) => EQUATION_NUMBER.test(l.text.trim())));
  const gutter = textGutter(lines, math.width);
  const textMaths = new Map(
    lines.flatMap((l) => {
      const kind = textFontMaths(l);
      return kind ? [[l, kind] as const] : [];
    }),
  );
  // Any line with words at a column's edge is a paragraph's, however much inline maths it holds
  // (a formula in a text font, or maths with a few words such as `\quad\text{et}\quad`, centred
  // in its column is not).
  const wordyMaths = lines.filter((l) => hasMath(l) && !readsAsProse(l));
  const paragraph = paragraphLines(lines, new Set(lines.filter(hasWords)), gutter, new Set([...textMaths.keys(), ...wordyMaths]));
  const edgeOf = columnEdges(lines, gutter, true);
  const centred = (box: Box, em: number) => {
    const edge = edgeOf(box);
    return edge !== undefined && centredInColumn({ x0: box.x0, x1: box.x1, size: em }, edge);
  };
  // Maths in a text font: a formula is never prose (at a column's edge it may be a row of an
  // eqnarray aligned on its relation) but seeds a display only away from the edges; a row of
  // italic words without an operator is prose at the edge (emphasis), an operand elsewhere.
  const textMath = (l: TextLine) => textMaths.get(l) === 'formula' || (textMaths.has(l) && !paragraph.has(l));
  // Lines with an equation number level with them at the right: rows that are displays of their own.
  const numbered = new Set(lines.filter((l) => levelNumbers(ink.get(l)!, [ink.get(l)!], [...numbers], gutter).length > 0));
  // A formula that TeX carried over to a line of its own carries on its paragraph: no display.
  const leading = proseLeading(lines.filter(hasWords));
  const isMaths = (l: TextLine) => hasMath(l) && !readsAsProse(l) && !numbered.has(l) && !paragraph.has(l);
  const wrapped = wrappedMathsLines(
    lines,
    (l) => paragraph.has(l) || readsAsProse(l),
    leading,
    (l) => edgeOf(l)?.left,
    isMaths,
  );
  for (const l of wrapped) paragraph.add(l);
  const wordy = (l: TextLine) => wordyDisplay(l, numbered.has(l) && hasMath(l), !paragraph.has(l) && centred(lineBox(l), l.size));
  // Printed code (a line set in a typewriter face) is never a display's, like prose, unless a
  // fraction bar spans it (`\frac{\texttt{width}}{\texttt{columns}}`: names in a display).
  const code = (l: TextLine) => isCodeLine(l) && !barredLine(lineBox(l), l.size, math.rules);
  // A line of words alone, centred away from the paragraphs' edges with an equation number level with it, is a display (`\text{…}` numbered).
  const numberedWords = (l: TextLine) => numbered.has(l) && !paragraph.has(l) && !code(l) && centred(lineBox(l), l.size);
  const prose = new Set(lines.filter((l) => wrapped.has(l) || ((readsAsProse(l) || code(l)) && !textMath(l) && !wordy(l) && !numberedWords(l))));
  const seeds = lines.filter(
    (l) =>
      !numbers.has(l) &&
      (hasMath(l) || numberedWords(l) || (textMaths.get(l) === 'formula' && !paragraph.has(l))) &&
      !prose.has(l) &&
      (l.x1 - l.x0 < MAX_DISPLAY_SHARE * (right - left) || (!paragraph.has(l) && centred(lineBox(l), l.size))),
  );
  const inlineParts = inlineFractionParts(lines, paragraph, math.rules, (l) => ink.get(l)!);
  const groups: Group[] = [];
  const taken = new Set<TextLine>();
  for (const seed of seeds) {
    if (taken.has(seed)) continue;
    const group: Group = { lines: [seed], box: ink.get(seed)!, parts: [ink.get(seed)!] };
    taken.add(seed);
    grow(
      group,
      lines.filter((l) => !numbers.has(l)),
      { ink, prose, paragraph, structure: [...math.rules, ...tall], gutter, numbered, textMath, inlineParts },
      taken,
    );
    groups.push(group);
  }
  const out: TextLine[] = lines.filter((l) => !taken.has(l));
  const relations = math.glyphs.filter((g) => RELATION_CHARS.has(g.unicode));
  const multlines = joinMultlineRows(joinNumberedAlignRows(groups, out, numbered, relations), out, edgeOf, (g) =>
    g.lines.every((l) => !prose.has(l) && !paragraph.has(l)),
  );
  for (const g of splitAdjacentDisplays(joinColumnPairs(multlines, out, gutter), readRows, leading)) {
    // A formula inside a paragraph's line is inline maths: its lines join that line.
    const em = Math.max(...g.lines.map((l) => l.size));
    const around = lineAround(g.box, em, out, (l) => ink.get(l) ?? lineBox(l), paragraph);
    if (around.length) {
      for (const l of around) out.splice(out.indexOf(l), 1);
      for (const [home, parts] of byHomeLine([...around, ...g.lines], paragraph)) {
        const merged = mergeIntoLine(home, parts, new Set(g.lines));
        out.push(merged);
        ink.set(merged, inkOf(lineBox(merged), byBaseline));
        paragraph.add(merged);
      }
      continue;
    }
    // Numbers level with the display are its equation numbers: a single one is its tag, several
    // are the numbers of its rows.
    const level = levelNumbers(
      g.box,
      g.parts,
      out.filter((l) => numbers.has(l)),
      gutter,
    );
    if (!level.length) level.push(...movedNumber(g.box, em, out, numbers));
    const within = level.filter((n) => intersects(lineBox(n), g.box)).map(lineBox);
    for (const n of level) out.splice(out.indexOf(n), 1);
    const number = level.length === 1 ? level[0] : undefined;
    const rowTags = level.length > 1 ? level.map((n) => ({ tag: tagText(n), y: (n.top + n.bottom) / 2 })) : undefined;
    const stacked = g.lines.length > 1 || math.rules.some((r) => contains(g.box, r)) || tall.some((b) => contains(g.box, b));
    const pieces = g.multline ? [] : spacedPieces(g);
    out.push(
      displayLine(g.lines, {
        box: g.box,
        stacked,
        ...(pieces.length > 1 ? { pieces } : {}),
        ...(number ? { tag: tagText(number) } : {}),
        ...(rowTags ? { rowTags } : {}),
        ...(within.length ? { numbers: within } : {}),
        ...(centred(g.box, em) ? { centred: true as const } : {}),
      }),
    );
  }
  return out.sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

/** Baselines this close (em) are one row of a display's column pairs. */
const PAIR_ROW_EM = 0.15;

/**
 * Groups that are the column pairs of one flalign (or a wide align, alignat): two or more rows
 * with a relation each, on the same baselines, side by side with nothing between them, joined into one group. The
 * wide white between pairs (flalign spreads them to the margins) keeps them apart when they grow.
 */
function joinColumnPairs(groups: Group[], others: TextLine[], gutter: number | undefined): Group[] {
  // The rows of a column pair each hold a relation (`x &= y`); a table's cells of values or a fraction's lines need not.
  const bases = (g: Group) =>
    [...new Set(g.lines.filter((l) => l.glyphs.some((c) => RELATION_CHARS.has(c.ch))).map((l) => Math.round(l.base * 10) / 10))].sort((a, b) => a - b);
  const sameRows = (a: Group, b: Group) => {
    const [ra, rb] = [bases(a), bases(b)];
    const em = Math.max(...a.lines.map((l) => l.size));
    return ra.length >= 1 && ra.length === rb.length && ra.every((y, i) => Math.abs(y - rb[i]!) <= PAIR_ROW_EM * em);
  };
  const out = [...groups];
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < out.length; j++) {
      const [a, b] = [out[i]!, out[j]!];
      if (i === j || b.box.x0 <= a.box.x1 || acrossGutter(a.box, b.box, gutter) || !sameRows(a, b)) continue;
      const between = { x0: a.box.x1, x1: b.box.x0, y0: Math.max(a.box.y0, b.box.y0), y1: Math.min(a.box.y1, b.box.y1) };
      if (others.some((l) => !EQUATION_NUMBER.test(l.text.trim()) && intersects(lineBox(l), between))) continue;
      out[i] = { lines: [...a.lines, ...b.lines], box: union(a.box, b.box), parts: [...a.parts, ...b.parts] };
      out.splice(j, 1);
      if (j < i) i--;
      j = -1;
    }
  }
  return out;
}

/**
 * The display cut at empty vertical strips at least SPLIT_GAP_EM wide: the parts of a display set
 * apart by \qquad, each read on its own so the space survives. Narrower strips (matrix and cases
 * columns, relation spacing) do not cut.
 */
function spacedPieces(g: Group): Box[] {
  const em = Math.max(...g.lines.map((l) => l.size));
  const spans = g.parts.map((b) => [b.x0, b.x1] as const).sort((a, b) => a[0] - b[0]);
  const pieces: Box[] = [];
  let [x0, x1] = spans[0]!;
  for (const [a, b] of spans.slice(1)) {
    if (a - x1 >= SPLIT_GAP_EM * em) {
      pieces.push({ ...g.box, x0, x1 });
      x0 = a;
    }
    x1 = Math.max(x1, b);
  }
  pieces.push({ ...g.box, x0, x1 });
  return pieces;
}

function displayLine(lines: TextLine[], display: DisplayRegion): DisplayLine {
  // A lone flat line keeps its own geometry: whether it is a display is for the layout to say.
  if (lines.length === 1 && !display.stacked) return { ...lines[0], display };
  const box = display.box;
  const ordered = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const main = lines.reduce((a, b) => (b.glyphs.length > a.glyphs.length ? b : a));
  return {
    glyphs: lines.flatMap((l) => l.glyphs).sort((a, b) => a.x - b.x),
    x0: box.x0,
    x1: box.x1,
    top: box.y0,
    bottom: box.y1,
    base: main.base,
    size: main.size,
    bold: false,
    text: ordered.map((l) => l.text).join(' '),
    display,
  };
}

/** A line spanned by a rule within half an em above or below it: a fraction's numerator or denominator. */
function barredLine(box: Box, em: number, rules: Box[]): boolean {
  return rules.some(
    (r) => r.x0 <= box.x0 + 0.1 * em && r.x1 >= box.x1 - 0.1 * em && (Math.abs(r.y0 - box.y1) < 0.5 * em || Math.abs(box.y0 - r.y1) < 0.5 * em),
  );
}
