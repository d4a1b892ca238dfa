import { parseLayout } from '../layout/index.js';
import type { MathRecognizer, MathRegion, MathResult, MathSymbol, Stroke } from '../types.js';
import { typicalSymbolHeight } from './geometry.js';
import { splitLines } from './lines.js';
import { cleanStrokes, symbolsFromStrokes, type SymbolsFromStrokesOptions } from './symbols-from-strokes.js';

export { StrokeClassifier, type StrokeSymbolReader } from './classifier.js';
export { defaultStrokeClassifier, symbolsFromStrokes, type SymbolsFromStrokesOptions } from './symbols-from-strokes.js';

/** A read and what it was built from: the front end's symbols of every line, with their runner-ups. */
export interface StrokesReading {
  result: MathResult;
  symbols: MathSymbol[];
  /** Strokes with ink, after cleanStrokes. */
  strokes: number;
}

const NOTHING: MathResult = { latex: '', confidence: 0, boxes: [] };

/**
 * Pen strokes → LaTeX. Each expression (a line of writing, split off by a vertical gap) goes
 * through symbolsFromStrokes and the layout parser on its own; several expressions become one
 * `\begin{array}{l} … \\ … \end{array}`, as spec 2.1 asks of strokes. Confidence is the product
 * over the lines; boxes are listed line by line.
 */
export async function readStrokes(input: readonly Stroke[], opts: SymbolsFromStrokesOptions = {}): Promise<StrokesReading> {
  const strokes = cleanStrokes(input);
  if (!strokes.length) return { result: NOTHING, symbols: [], strokes: 0 };
  const lines = splitLines(strokes, typicalSymbolHeight(strokes));
  const results: MathResult[] = [];
  const symbols: MathSymbol[] = [];
  for (const line of lines) {
    const found = await symbolsFromStrokes(line, opts);
    symbols.push(...found);
    results.push(parseLayout(found));
  }
  const read = results.filter((r) => r.latex !== '');
  if (read.length === 0) return { result: NOTHING, symbols, strokes: strokes.length };
  const result = {
    latex: read.length === 1 ? read[0].latex : `\\begin{array}{l} ${read.map((r) => r.latex).join(' \\\\ ')} \\end{array}`,
    confidence: read.reduce((product, r) => product * r.confidence, 1),
    boxes: read.flatMap((r) => r.boxes),
  };
  return { result, symbols, strokes: strokes.length };
}

/** readStrokes' LaTeX, confidence and boxes. */
export async function recognizeStrokes(input: readonly Stroke[], opts: SymbolsFromStrokesOptions = {}): Promise<MathResult> {
  return (await readStrokes(input, opts)).result;
}

/** The MathRecognizer for regions of kind 'strokes'. */
export class StrokesRecognizer implements MathRecognizer {
  constructor(private readonly opts: SymbolsFromStrokesOptions = {}) {}

  async recognize(region: MathRegion): Promise<MathResult> {
    if (region.kind !== 'strokes') throw new TypeError(`the strokes recogniser reads pen strokes, not a region of kind '${region.kind}'`);
    return recognizeStrokes(region.strokes, this.opts);
  }
}
