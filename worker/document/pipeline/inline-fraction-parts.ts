import type { Box } from '../../engine/math/types.js';
import type { TextLine } from './text-layer.js';

/**
 * The numerators and denominators of fractions set inline in a paragraph's line. The text layer
 * cuts such a fraction into three lines (its numerator over the paragraph's line, the bar inside
 * it, its denominator under it), and a numerator is a maths line a row's gap under a display
 * that ends just above the paragraph: it must not join that display as its last row (a
 * `\frac{4\sigma_x^2\sigma_y^2}{…}` in the line after a display had come back as the display's
 * second row). It stays for the paragraph's line, which takes in its inline formula.
 */

/** A text-style fraction's parts stand this close (em, ink to bar): the numerator's shift leaves about 0.1–0.3 em. */
const PART_GAP_EM = 0.5;
/** A part lies over the bar's own width, give or take this (em): the bar is as wide as the wider part. */
const PART_OVERHANG_EM = 0.2;

/**
 * The lines of `candidates` that stand right over or under a fraction bar lying inside the ink
 * band of a `paragraph` line and across its extent, within the bar's width, and those right over
 * or under such a part (a numerator's superscripts, which the text layer sets on a line of their own).
 */
export function inlineFractionParts(candidates: TextLine[], paragraph: Iterable<TextLine>, rules: Box[], ink: (l: TextLine) => Box): Set<TextLine> {
  const bars = [...paragraph].flatMap((p) => {
    const band = ink(p);
    const em = p.size;
    return rules
      .filter((r) => r.x1 - r.x0 > 2 * (r.y1 - r.y0) && r.y0 >= band.y0 && r.y1 <= band.y1 && r.x0 <= band.x1 + em && r.x1 >= band.x0 - em)
      .map((r) => ({ bar: r, em }));
  });
  const parts = new Map<TextLine, Box>();
  // Over or under the bar, or over a numerator's (under a denominator's) line already found: its scripts.
  const touches = (box: Box, { bar, em }: { bar: Box; em: number }, from: Box) =>
    box.x0 >= bar.x0 - PART_OVERHANG_EM * em &&
    box.x1 <= bar.x1 + PART_OVERHANG_EM * em &&
    Math.max(from.y0 - box.y1, box.y0 - from.y1) <= PART_GAP_EM * em &&
    (box.y1 <= bar.y0 + 0.1 * em || box.y0 >= bar.y1 - 0.1 * em);
  for (let grown = true; grown;) {
    grown = false;
    for (const l of candidates) {
      if (parts.has(l)) continue;
      const box = ink(l);
      const reached = bars.find((b) => touches(box, b, b.bar) || [...parts].some(([part, bar]) => bar === b.bar && touches(box, b, ink(part))));
      if (reached) {
        parts.set(l, reached.bar);
        grown = true;
      }
    }
  }
  return new Set(parts.keys());
}
