import { parseLayout } from '../layout/index.js';
import type { MathRecognizer, MathRegion, MathResult, Stroke } from '../types.js';
import { typicalSymbolHeight } from './geometry.js';
import { splitLines } from './lines.js';
import { cleanStrokes, symbolsFromStrokes, type SymbolsFromStrokesOptions } from './symbols-from-strokes.js';

export { StrokeClassifier, type StrokeSymbolReader } from './classifier.js';
export { defaultStrokeClassifier, symbolsFromStrokes, type SymbolsFromStrokesOptions } from './symbols-from-strokes.js';

/**
 * Pen strokes → LaTeX. Each expression (a line of writing, split off by a vertical gap) goes
 * through symbolsFromStrokes and the layout parser on its own; several expressions become one
 * `\begin{array}{l} … \\ … \end{array}`, as spec 2.1 asks of strokes. Confidence is the product
 * over the lines; boxes are listed line by line.
 */
export async function recognizeStrokes(input: readonly Stroke[], opts: SymbolsFromStrokesOptions = {}): Promise<MathResult> {
  const strokes = cleanStrokes(input);
  if (!strokes.length) return { latex: '', confidence: 0, boxes: [] };
  const lines = splitLines(strokes, typicalSymbolHeight(strokes));
  const results: MathResult[] = [];
  for (const line of lines) results.push(parseLayout(await symbolsFromStrokes(line, opts)));
  const read = results.filter((r) => r.latex !== '');
  if (read.length === 0) return { latex: '', confidence: 0, boxes: [] };
  return {
    latex: read.length === 1 ? read[0].latex : `\\begin{array}{l} ${read.map((r) => r.latex).join(' \\\\ ')} \\end{array}`,
    confidence: read.reduce((product, r) => product * r.confidence, 1),
    boxes: read.flatMap((r) => r.boxes),
  };
}

/** The MathRecognizer for regions of kind 'strokes'. */
export class StrokesRecognizer implements MathRecognizer {
  constructor(private readonly opts: SymbolsFromStrokesOptions = {}) {}

  async recognize(region: MathRegion): Promise<MathResult> {
    if (region.kind !== 'strokes') throw new TypeError(`the strokes recogniser reads pen strokes, not a region of kind '${region.kind}'`);
    return recognizeStrokes(region.strokes, this.opts);
  }
}
