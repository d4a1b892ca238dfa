import type { MathSymbol } from '../types.js';
import { height, type Element, type Glyph } from './element.js';
import { AXIS_HEIGHT, TALL, verticalClass } from './metrics.js';

/**
 * The leaf element of one glyph. A PDF glyph brings its baseline and size; otherwise both come
 * from the box through the glyph's vertical class. Big operators and growing delimiters hang
 * around the maths axis whatever the source says (a PDF's extension-font glyphs have baselines
 * that are not the formula's), so their baseline always comes from the axis.
 */
export function glyphElement(glyph: Glyph, symbol: Pick<MathSymbol, 'baseline' | 'size'>): Element {
  const vertical = verticalClass(glyph.latex, glyph.style);
  const box = glyph.box;
  const ownEm = vertical.sizes ? height(box) / (vertical.top - vertical.bottom) : null;
  const em = symbol.size ?? ownEm;
  const node = { kind: 'glyph' as const, glyph, latex: glyph.latex };
  const known = symbol.baseline;
  if (known !== undefined && vertical !== TALL) return { node, box, em, baselineFor: () => known };
  if (vertical.anchor === 'axis') {
    const centre = (box.y0 + box.y1) / 2;
    return { node, box, em, baselineFor: (size) => centre + AXIS_HEIGHT * size };
  }
  return { node, box, em, baselineFor: (size) => box.y1 + vertical.bottom * size };
}
