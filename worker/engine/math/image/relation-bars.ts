import { RULE, type MathSymbol } from '../types.js';
import { OR_EQUAL } from './vocabulary.js';
/** The bar's ends lie within this share of the relation's width of the relation's own. */
const END_SLACK = 0.25;
/** The bar lies at most this share of the relation's height below it. */
const MAX_GAP = 0.6;

/**
 * Joins a relation and the bar just under it, as wide as it, into the or-equal relation (`<` and
 * its bar are `\leq`). The merge step joins such a bar to its glyph only when nothing else lies
 * as near beneath it, since a bar between two glyphs may be a fraction's; in `\substack` rows the
 * next row's glyphs stand that near, and `\frac{<}{<}` came out. A relation is never a fraction's
 * numerator, so once the glyph above reads as one the bar is its own.
 */
export function joinRelationBars(symbols: MathSymbol[]): MathSymbol[] {
  const used = new Set<MathSymbol>();
  const joined = symbols.map((relation) => {
    const latex = OR_EQUAL[relation.latex];
    if (!latex) return relation;
    const { x0, x1, y0, y1 } = relation.box;
    const [width, height] = [x1 - x0, y1 - y0];
    const bar = symbols.find(
      (s) =>
        s.latex === RULE &&
        !used.has(s) &&
        Math.abs(s.box.x0 - x0) <= END_SLACK * width &&
        Math.abs(s.box.x1 - x1) <= END_SLACK * width &&
        s.box.y0 >= y1 - 1 &&
        s.box.y0 - y1 <= MAX_GAP * height,
    );
    if (!bar) return relation;
    used.add(bar);
    const { alternatives: _read, ...rest } = relation;
    return { ...rest, latex, box: { x0: Math.min(x0, bar.box.x0), y0, x1: Math.max(x1, bar.box.x1), y1: bar.box.y1 } };
  });
  return joined.filter((s) => !used.has(s));
}
