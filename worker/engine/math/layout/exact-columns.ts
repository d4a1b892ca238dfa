import { glyphOf, type Element } from './element.js';

/**
 * Alignment points of a born-digital display, where glyph positions are exact (a PDF's glyphs,
 * not an image's pixels). An `align` column starts every row at one x to the PDF's precision, so:
 * - relations of one glyph that start within the parser's tolerance but not at one exact x
 *   (`d:a=a:c &\Longrightarrow …` over `e:b=b:c &\Longrightarrow …`: the `=` signs are apart by
 *   the width difference of `d:a` and `e:b`) are not at an alignment point;
 * - when the rows go on identically from an exact relation point (`∇·E = 0, &\quad ∇×E = …` over
 *   `∇·B = 0, &\quad ∇×B = …`), the picture cannot tell where in that common run the `&` is; a
 *   wide space inside the run (a `\quad` after the `&`) is where the author put it.
 * Different glyphs (an `=` over a `\leq`) have different side bearings, so only like glyphs are compared.
 */

/** Glyphs of one exact x are within this (em): PDF coordinates carry about 0.001 pt. */
const EXACT_EM = 0.008;
/** A space this wide (em) inside a common run is the `\quad` after an `&`. */
const QUAD_EM = 0.8;

const latexOf = (element: Element) => glyphOf(element)?.latex ?? '';

/**
 * The relation points that hold exactly, each moved to a wide space inside the run the rows
 * share after it. `anchorsAt(x)` gives, per row, the element the parser took as starting at x (if any).
 */
export function exactPoints(rows: Element[][], points: number[], em: number, anchorsAt: (x: number) => Array<Element | undefined>): number[] {
  const exact = EXACT_EM * em;
  const kept: number[] = [];
  for (const point of points) {
    const anchors = anchorsAt(point);
    const present = anchors.filter((a): a is Element => a !== undefined);
    const byGlyph = new Map<string, number[]>();
    for (const anchor of present) byGlyph.set(latexOf(anchor), [...(byGlyph.get(latexOf(anchor)) ?? []), anchor.box.x0]);
    if ([...byGlyph.values()].some((xs) => Math.max(...xs) - Math.min(...xs) > exact)) continue;
    kept.push(present.length === rows.length ? (quadInCommonRun(rows, anchors as Element[], exact, em) ?? point) : point);
  }
  return kept;
}

/** Where the rows, identical glyph for glyph from their anchors on, leave a `\quad` before they differ; null if they do not. */
function quadInCommonRun(rows: Element[][], anchors: Element[], exact: number, em: number): number | null {
  const tails = rows.map((row, i) => row.filter((e) => e.box.x0 >= anchors[i]!.box.x0 - exact).sort((a, b) => a.box.x0 - b.box.x0));
  const shortest = Math.min(...tails.map((tail) => tail.length));
  const same = (k: number) => {
    const first = tails[0]![k]!;
    return tails.every((tail) => {
      const e = tail[k]!;
      return latexOf(e) !== '' && latexOf(e) === latexOf(first) && Math.abs(e.box.x0 - first.box.x0) <= exact && Math.abs(e.box.x1 - first.box.x1) <= exact;
    });
  };
  let run = 0;
  while (run < shortest && same(run)) run++;
  // Identical rows leave no choice: the rows must differ after the common run.
  if (run === shortest && tails.every((tail) => tail.length === shortest)) return null;
  // Not right after the relation: eqnarray sets its relation in a column of its own (`a &=& b`),
  // with column space on both sides.
  for (let k = 2; k < run; k++) {
    const before = tails[0]![k - 1]!;
    const after = tails[0]![k]!;
    if (after.box.x0 - before.box.x1 >= QUAD_EM * em) return (before.box.x1 + after.box.x0) / 2;
  }
  return null;
}
