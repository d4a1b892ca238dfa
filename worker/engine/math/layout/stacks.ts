import { RULE } from '../types.js';
import { centreX, glyphOf, unionBox, width, type Element, type ParseRow } from './element.js';
import { LIMIT_OPERATORS, SCRIPT_SHARE } from './metrics.js';

/**
 * `\overset{*}{X}`, `\underset{n}{Y}`, `\overset{\text{def}}{=}`: script-size pieces centred right
 * above or below a symbol, where a superscript would stand beside it. Runs last before the
 * baseline, once accents, fractions, words, limits and arrow labels hold their parts, where both
 * sizes are known (a PDF's glyphs, letters of an image). A mark whose size is a guess (a star, a
 * circle in an image) stacks only when its ink lies over the symbol's own width, centred on it:
 * a superscript starts where its base ends.
 */

/** The pieces (script size, SCRIPT_SHARE) stand this close (em of the symbol) above or below it. */
const GAP_EM = 0.5;
/** Pieces this close (em) beside one over the symbol are on its line. */
const JOIN_EM = 0.15;
/** Their centre is within this share of the wider of the two from the symbol's. */
const CENTRED_SHARE = 0.2;
/** Relations `\\overset` commonly stacks over (`\\overset{\\text{def}}{=}`, `\\overset{\\sim}{=}`, `\\overset{f}{\\to}`). */
const RELATIONS = new Set(['=', '\\equiv', '\\sim', '\\approx', '\\simeq', '\\cong', '<', '>', '\\leq', '\\geq', '\\to', '\\rightarrow', '\\leftarrow']);
/** A mark of unknown size is script-sized: at most this share of the symbol's em tall. */
const MARK_HEIGHT_EM = 0.6;

export function groupStacks(elements: Element[], parseRow: ParseRow): Element[] {
  let pool = elements;
  const largest = Math.max(0, ...elements.flatMap((element) => (element.em === null ? [] : [element.em])));
  for (const base of elements) {
    const glyph = glyphOf(base);
    // An image's relation tells no size (its bars are rules): it stands at the formula's own size.
    const em = base.em ?? (glyph && RELATIONS.has(glyph.latex) && largest > 0 ? largest : null);
    if (!glyph || em === null || glyph.latex === RULE || LIMIT_OPERATORS.has(glyph.latex) || !pool.includes(base)) continue;
    // A script-size base (`H_{f}^{\circ}`'s f) has the superscript over it: no mark of unknown size stacks on it.
    const guessed = em >= SCRIPT_SHARE * largest;
    const over = stacked(pool, base, em, 'above', guessed);
    const under = stacked(pool, base, em, 'below', guessed);
    if (!over.length && !under.length) continue;
    const claimed = new Set([...over, ...under]);
    pool = pool.filter((element) => element !== base && !claimed.has(element));
    const node = { kind: 'stack' as const, base: base.node, over: parseRow(over).nodes, under: parseRow(under).nodes };
    pool.push({ node, box: unionBox([base, ...claimed].map((element) => element.box)), em: base.em, baselineFor: base.baselineFor });
  }
  return pool;
}

/**
 * The pieces on one side: those over the symbol's own width (half their width or more), and those
 * joined to them by at most a thin space (`def` over a narrower `=`), centred on the symbol. A
 * superscript stands beside its base and the next symbol's, over neither.
 */
function stacked(pool: Element[], base: Element, em: number, side: 'above' | 'below', guessed: boolean): Element[] {
  const b = base.box;
  const near = pool.filter((element) => {
    if (element === base || (element.em === null ? !guessed || !markOver(element, base, em) : element.em >= SCRIPT_SHARE * em)) return false;
    const gap = side === 'above' ? b.y0 - element.box.y1 : element.box.y0 - b.y1;
    return gap >= -0.05 * em && gap <= GAP_EM * em;
  });
  const line = near.filter((e) => Math.min(e.box.x1, b.x1) - Math.max(e.box.x0, b.x0) >= 0.5 * Math.min(width(e.box), width(b)));
  for (let grown = line.length > 0; grown;) {
    const span = unionBox(line.map((element) => element.box));
    const joined = near.filter((e) => !line.includes(e) && e.box.x0 - span.x1 <= JOIN_EM * em && span.x0 - e.box.x1 <= JOIN_EM * em);
    line.push(...joined);
    grown = joined.length > 0;
  }
  if (!line.length) return [];
  const span = unionBox(line.map((element) => element.box));
  return Math.abs(centreX(span) - centreX(b)) <= CENTRED_SHARE * Math.max(width(span), width(b)) ? line : [];
}

/** A mark of unknown size within the symbol's width (`em` its size), centred on it and no taller than a script. */
function markOver(mark: Element, base: Element, em: number): boolean {
  const [m, b] = [mark.box, base.box];
  return m.y1 - m.y0 <= MARK_HEIGHT_EM * em && m.x0 >= b.x0 && m.x1 <= b.x1 && Math.abs(centreX(m) - centreX(b)) <= CENTRED_SHARE * width(b);
}
