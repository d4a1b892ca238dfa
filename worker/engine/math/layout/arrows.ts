import { glyphOf, height, unionBox, width, type Element, type Glyph, type ParseRow } from './element.js';
import { SCRIPT_SHARE } from './metrics.js';

/** Arrows that stretch under a label, by the label-bearing command they become. */
const EXTENSIBLE: Record<string, string> = {
  '\\rightarrow': '\\xrightarrow',
  '\\longrightarrow': '\\xrightarrow',
  '\\leftarrow': '\\xleftarrow',
  '\\longleftarrow': '\\xleftarrow',
};
/** A label starts within this many arrow heights of the arrow. */
const LABEL_GAP = 1.2;
/**
 * A label is set in script size, no taller than the arrow glyph's box give or take; a full-size
 * letter under a stray arrow (an `\overrightarrow` left unread) is taller.
 */
const LABEL_MAX_HEIGHT = 1.2;
/** How far (arrow heights) a label above may reach down into the arrow's box. */
const LABEL_DIP = 0.3;
/** Labels stay within the arrow's span, give or take this fraction of its width. */
const SPAN_SLACK = 0.1;

/**
 * `\xrightarrow[below]{above}`: small elements set right above (below) an arrow and within its
 * width are its labels, as chemistry writes reaction conditions. Runs after limits, so the
 * `x \to 0` under a `\lim` already belongs to the limit and its arrow is not looked at.
 */
export function groupArrowLabels(elements: Element[], parseRow: ParseRow): Element[] {
  let pool = elements;
  for (const arrow of elements) {
    const glyph = glyphOf(arrow);
    const command = glyph && EXTENSIBLE[glyph.latex];
    if (!command || !pool.includes(arrow)) continue;
    const above = labelLine(pool, arrow, 'above');
    const below = labelLine(pool, arrow, 'below');
    if (!above.length && !below.length) continue;
    const claimed = new Set([...above, ...below]);
    pool = pool.filter((element) => element !== arrow && !claimed.has(element));
    const node = {
      kind: 'accent' as const,
      command,
      marks: [glyph as Glyph],
      body: above.length ? parseRow(above).nodes : [],
      below: below.length ? parseRow(below).nodes : undefined,
    };
    pool.push({ node, box: unionBox([arrow.box, ...[...claimed].map((element) => element.box)]), em: arrow.em, baselineFor: arrow.baselineFor });
  }
  return pool;
}

/**
 * Whether an arrow carries a label above it: then what stands under it is its lower label
 * (`\xrightarrow[\text{under}]{\text{over}}`), never the body of an `\overrightarrow`.
 */
export function labelledArrow(arrow: Element, pool: Element[]): boolean {
  const glyph = glyphOf(arrow);
  return glyph !== null && glyph.latex in EXTENSIBLE && labelLine(pool, arrow, 'above').length > 0;
}

function labelLine(pool: Element[], arrow: Element, side: 'above' | 'below'): Element[] {
  const a = arrow.box;
  const slack = SPAN_SLACK * width(a);
  const line = pool.filter((element) => {
    if (element === arrow) return false;
    const b = element.box;
    const gap = side === 'above' ? a.y0 - b.y1 : b.y0 - a.y1;
    // Where sizes are known (a PDF's glyphs), script size says it; an ascender (`f`) stands taller
    // than a thin arrow's box, so in an image only what stands under an arrow is measured by it
    // (the letters an `\overrightarrow` left unread sits on); above an arrow only a label stands.
    const small =
      element.em !== null && arrow.em !== null ? element.em < SCRIPT_SHARE * arrow.em : side === 'above' || height(b) <= LABEL_MAX_HEIGHT * height(a);
    // A label's descender (an italic f's tail) may reach into the box of the arrowhead under it.
    const dip = (side === 'above' ? LABEL_DIP : 0.1) * height(a);
    return gap >= -dip && gap <= LABEL_GAP * height(a) && small && b.x0 >= a.x0 - slack && b.x1 <= a.x1 + slack;
  });
  // A label is narrower than its arrow, which TeX stretches to fit it with room to spare.
  if (!line.length || width(unionBox(line.map((element) => element.box))) > width(a)) return [];
  return line;
}
