import type { OcrResult } from '../engine/text/index.js';
import { isProse } from '../../page/processors/words.js';
import { readFormula, type MathEngines } from './formula-read.js';
import { uprightGray } from './upright-image.js';

/**
 * Whether an image read for maths keeps the turn the text model chose. The text model picks the
 * turn whose lines read best as text; a formula is no text, and a short formula often reads a
 * hair better on its side (`a^2+b^2=c^2` turned reads as `2c`). A turn whose lines read as prose
 * is kept: that is a turned page. Otherwise the image is read as one formula both ways and the
 * turn is kept only when the turned formula reads with more confidence per symbol than the
 * upright one.
 */
export async function keepsTurn(png: Buffer, turned: OcrResult, engines: MathEngines): Promise<boolean> {
  if (turned.rotation === 0 || turned.lines.some((l) => isProse(l.text))) return true;
  const [upright, turnedRead] = await Promise.all([
    uprightGray(png, 0).then((g) => readFormula(g, engines)),
    uprightGray(png, turned.rotation).then((g) => readFormula(g, engines)),
  ]);
  return turnedRead.confidenceRate > upright.confidenceRate;
}
