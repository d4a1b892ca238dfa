import sharp from 'sharp';
import type { HandRead } from '../engine/math/image/handwriting.js';
import type { GrayImage, MathRecognizer, MathSymbol } from '../engine/math/types.js';
import type { InkKindClassifier } from './ink-kind.js';
import { nBestFormulas } from './candidates.js';
import type { CalibratedConfidence, FormulaRead } from '../../page/model.js';
import { formulaFeatures, SECOND_READ_SCALE } from './formula-confidence.js';
import { firstRelationX } from './display-row.js';
import { splitEquationNumber } from './equation-number.js';

/** One formula image read by the maths engines, and the engines a page's maths pass reads with (math-page.ts). */

/** White kept around a line's ink when it is cut out for the maths recogniser. */
export const BAND_MARGIN_PX = 4;

export interface MathEngines {
  math: MathRecognizer;
  /**
   * The image front end alone, so candidates can be built from the classifier's alternatives.
   * `handwriting`: the page's probability of being handwritten (inkKind), which with the typeset
   * classifier's certainty picks the symbol classifier (image/handwriting.ts); unknown, both are
   * tried. `handwritten` says which classifier read the image.
   */
  symbols: (image: GrayImage, handwriting?: number) => Promise<HandRead>;
  /** Handwritten or printed (is_handwritten, is_printed); without it the page says nothing about its ink. */
  inkKind?: InkKindClassifier;
  /**
   * The calibrated chance that a printed formula read is exact, from the features of its evidence
   * (formula-confidence.ts); without it formulas report their per-symbol rate.
   */
  formulaConfidence?: (features: readonly number[]) => CalibratedConfidence;
  /**
   * The same for a read by the handwriting classifier (its probabilities are another scale): the
   * handwriting-confidence model over the same evidence; without it such reads report their per-symbol rate.
   */
  handwritingConfidence?: (features: readonly number[]) => CalibratedConfidence;
}

/**
 * The image read as one formula by the maths engine (n-best candidates when asked). Given what the
 * text model read on the same ink (`text`), a read of a whole line or image is judged by the
 * formula-confidence model when the engines have one (`calibrated`; a read by the handwriting
 * classifier by the handwriting-confidence model); inline spans of a prose
 * line are not (the model was fitted on whole formulas). A `row` of a page (a band of its ink) has
 * its equation number taken apart (equation-number.ts) and where it aligns measured (display-row.ts).
 */
export async function readFormula(image: GrayImage, engines: MathEngines, opts: { nBest?: number; text?: string; row?: boolean } = {}): Promise<FormulaRead> {
  // A row of a page may carry its equation number at the margin (equation-number.ts): taken apart
  // in every read of it, the second read for the confidence model included.
  const symbolsOf = async (of: GrayImage) => {
    const found = await engines.symbols(of);
    return { ...found, ...(opts.row && !found.handwritten ? splitEquationNumber(found.symbols) : {}) };
  };
  const { symbols, tag, handwritten } = await symbolsOf(image);
  const parse = (s: MathSymbol[]) => engines.math.recognize({ kind: 'symbols', symbols: s });
  const best = await parse(symbols);
  const read: FormulaRead = {
    latex: best.latex,
    confidence: best.confidence,
    confidenceRate: perSymbol(best.boxes.map((b) => b.confidence)),
    symbolCount: best.boxes.length,
    ...(handwritten ? { handwritten } : {}),
    ...(tag ? { tag } : {}),
  };
  const relationX = opts.row ? firstRelationX(best.boxes) : undefined;
  // The row image has BAND_MARGIN_PX of white left of the line's box.
  if (relationX !== undefined) read.relationX = relationX - BAND_MARGIN_PX;
  const calibrate = handwritten ? engines.handwritingConfidence : engines.formulaConfidence;
  if (opts.text !== undefined && calibrate) {
    const second = await parse((await symbolsOf(await enlarged(image, SECOND_READ_SCALE))).symbols);
    read.calibrated = calibrate(formulaFeatures({ symbols, result: best, text: opts.text, second }));
  }
  if (opts.nBest) read.candidates = await nBestFormulas(symbols, opts.nBest, parse);
  return read;
}

/** Geometric mean: the per-symbol confidence that multiplies up to the product. */
export function perSymbol(confidences: number[]): number {
  if (!confidences.length) return 0;
  return Math.exp(confidences.reduce((s, c) => s + Math.log(Math.max(c, 1e-12)), 0) / confidences.length);
}

/** The image `scale` times its size (Lanczos), in grey levels. */
async function enlarged(image: GrayImage, scale: number): Promise<GrayImage> {
  const [width, height] = [Math.round(image.width * scale), Math.round(image.height * scale)];
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize(width, height, { kernel: 'lanczos3' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
