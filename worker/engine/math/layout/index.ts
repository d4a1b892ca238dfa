import type { MathResult, MathSymbol } from '../types.js';
import { emitLatex } from './emit.js';
import { glyphElement } from './glyphs.js';
import { chooseLabels } from './lookalikes.js';
import { parseRow } from './parse.js';

/**
 * The 2-D layout parser: symbols with boxes (from PDF glyphs, image crops or pen strokes) to
 * LaTeX. `confidence` is the plain product of the chosen labels' probabilities (no tempering:
 * a long formula is more likely to hold a mistake, and the number should say so); layout
 * decisions add no factor of their own. `boxes` lists the symbols in reading order with the
 * token each became.
 */
export function parseLayout(symbols: MathSymbol[]): MathResult {
  if (symbols.length === 0) return { latex: '', confidence: 0, boxes: [] };
  const glyphs = chooseLabels(symbols);
  const elements = glyphs.map((glyph, index) => glyphElement(glyph, symbols[index]));
  const { latex, boxes } = emitLatex(parseRow(elements).nodes);
  const confidence = glyphs.reduce((product, glyph) => product * glyph.confidence, 1);
  return { latex, confidence, boxes };
}
