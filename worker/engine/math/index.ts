import { parseLayout } from './layout/index.js';
import { symbolsFromImage } from './image/symbols-from-image.js';
import type { SymbolClassifier } from './image/classifier.js';
import { symbolsFromEitherHand } from './image/handwriting.js';
import type { MathRecognizer, MathRegion, MathResult, MathSymbol, Stroke } from './types.js';

export type { MathRecognizer, MathRegion, MathResult } from './types.js';

export interface MathRecognizerOptions {
  /** Image symbol classifier; default: the shipped models/math-symbols.onnx, loaded on first use. */
  imageClassifier?: SymbolClassifier;
  /** Image symbol classifier of scans (image/scan-classifier.ts); default: `imageClassifier` where that is given, else the shipped models/math-symbols-scan.onnx. */
  scanClassifier?: SymbolClassifier;
  /** Handwriting image classifier (image/handwriting.ts); with it every image is also read as handwriting and the likelier read kept. */
  handwritingClassifier?: SymbolClassifier;
  /** The strokes front end; absent until one is configured, strokes regions are refused. */
  strokes?: (strokes: Stroke[]) => Promise<MathResult>;
}

/**
 * The maths recogniser behind one interface: `recognize(region) → {latex, confidence, boxes}`.
 * Every front end ends in the same layout parser; only the way symbols are found differs:
 * - symbols: already labelled (a born-digital PDF's glyphs and rules) → parser;
 * - image: binarise, components, CNN classifier (worker/engine/math/image; typeset, or
 *   handwriting when that read is the likelier) → parser;
 * - strokes: stroke grouping and classification (worker/engine/math/strokes), which also merges
 *   several expressions into one array, so it returns a finished result.
 */
export function createMathRecognizer(opts: MathRecognizerOptions = {}): MathRecognizer {
  return {
    async recognize(region: MathRegion): Promise<MathResult> {
      switch (region.kind) {
        case 'symbols':
          return parseLayout(region.symbols);
        case 'image': {
          const symbols: MathSymbol[] =
            opts.imageClassifier && opts.handwritingClassifier
              ? (
                  await symbolsFromEitherHand(region.image, {
                    printed: opts.imageClassifier,
                    scanned: opts.scanClassifier,
                    handwritten: opts.handwritingClassifier,
                  })
                ).symbols
              : await symbolsFromImage(region.image, { classifier: opts.imageClassifier, scanClassifier: opts.scanClassifier });
          return parseLayout(symbols);
        }
        case 'strokes':
          if (!opts.strokes) throw new Error('no strokes front end is configured');
          return opts.strokes(region.strokes);
      }
    },
  };
}
