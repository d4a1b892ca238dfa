import type { ChemicalStructure } from '../core/chemistry.js';
import type { Box, Rotation } from './geometry.js';

/**
 * What the inference worker answers for a 'page' task. Without maths options it is exactly the
 * printed-text OcrPageResult the document pipeline reads; with them, lines gain a kind and maths
 * lines their LaTeX, and a formula read of the whole image may be attached.
 */

/** A word the text model read, with its box in pixels of the input image. */
export interface OcrWord {
  text: string;
  /** Mean of the word's per-character probabilities. */
  confidence: number;
  box: Box;
}

/** The printed-text read of a page image: what a 'page' task answers without maths options. */
export interface OcrPageResult {
  /** `words` (from the CTC steps) are missing in results of older workers. */
  lines: { text: string; confidence: number; box: Box; words?: { text: string; box: Box }[] }[];
  width: number;
  height: number;
  /** Engine's turn to upright and its confidence (OcrResult); older workers may leave them out. */
  rotation?: Rotation;
  rotationConfidence?: number;
}

/** A part of a prose line: words as read, or an inline formula read by the maths engine (boxes in input pixels). */
export type Segment = { kind: 'text'; words: OcrWord[] } | { kind: 'math'; math: MathRead; box: Box };

export interface MathRead {
  /** LaTeX without delimiters; '' when nothing was recognised. */
  latex: string;
  /** Product of the symbol probabilities: the chance every symbol is right. */
  confidence: number;
  /** Geometric mean of the symbol probabilities: quality per symbol, independent of length. */
  confidenceRate: number;
  /** Symbols the formula was built from. */
  symbolCount: number;
  /**
   * A printed formula read as a line or the whole image, judged by the formula-confidence model
   * (worker/inference/formula-confidence.ts): what the answer reports for it in place of the
   * symbol-based confidence and confidenceRate (formulaConfidence, formulaRate).
   */
  calibrated?: CalibratedConfidence;
  /** Read by the handwriting symbol classifier (the route of worker/engine/math/image/handwriting.ts); absent for print. */
  handwritten?: boolean;
  /** The equation number printed beside a display on a page image, without its parentheses (worker/inference/equation-number.ts); never in `latex`. */
  tag?: string;
  /** A display of several rows on a page image numbered on more than one row: each row's number (none: undefined), in place of `tag`. */
  rowTags?: Array<string | undefined>;
  /** A row of display maths on a page image: the x of its first main-size relation, in pixels right of its line's upright box (worker/inference/display-row.ts). */
  relationX?: number;
}

export interface CalibratedConfidence {
  /** The calibrated chance that the LaTeX is exactly right. */
  confidence: number;
  /** That chance on the confidence_rate scale, where the default threshold 0.75 keeps 96 % of exact reads. */
  rate: number;
}

/** The confidence a formula read reports: its calibrated chance of being exact, else the product of its symbols'. */
export const formulaConfidence = (m: MathRead): number => m.calibrated?.confidence ?? m.confidence;

/** The confidence_rate a formula read reports: its calibrated rate, else its per-symbol rate. */
export const formulaRate = (m: MathRead): number => m.calibrated?.rate ?? m.confidenceRate;

export interface PageLine {
  /** The printed-text read ('' for a maths line no text line overlapped). */
  text: string;
  /** For text lines the text recogniser's mean per-character probability; for maths lines the formula's product confidence. */
  confidence: number;
  /** In pixels of the input image, whatever the rotation. */
  box: { x: number; y: number; width: number; height: number };
  /** Present when maths was asked for: which reading the line's evidence chose. */
  kind?: 'text' | 'math';
  /** The maths read of a maths line. */
  math?: MathRead;
  /** The text model's words (text lines). */
  words?: OcrWord[];
  /** A text line holding inline maths: its text and maths parts in order (boxes in input pixels). */
  segments?: Segment[];
  /** A chemical structure diagram read in place of the lines inside it (include_smiles). */
  chemistry?: ChemicalStructure;
}

export interface Candidate {
  latex: string;
  /** Product of the chosen symbol probabilities. */
  confidence: number;
}

/** The whole (upright) image read as one formula. */
export interface FormulaRead extends MathRead {
  /** Best distinct LaTeX strings by product probability, best first; only when n_best was asked. */
  candidates?: Candidate[];
}

export interface PageRecognition extends OcrPageResult {
  lines: PageLine[];
  /** Filled in formula mode, and in auto mode when the whole image is one maths line. */
  formula?: FormulaRead;
  /** No ink at all after binarisation. */
  blank?: boolean;
  /** Probability that the ink is handwriting (worker/inference/ink-kind.ts); absent when no ink-kind model read it. */
  handwriting?: number;
}

/**
 * At this probability of handwriting (the worker's ink-kind model) or more, an image may be
 * handwritten: the worker reads its maths with the handwriting classifier unless the typeset
 * classifier is sure of them (worker/engine/math/image/handwriting.ts).
 */
export const HANDWRITING_THRESHOLD = 0.5;

/**
 * Whether a page reads as handwritten (/v3/text's is_handwritten): what the route decided for its
 * formulas — handwritten when more of its formula reads went to the handwriting classifier than to
 * the typeset one (print on a tie), so an unsure ink kind over type the typeset classifier is sure
 * of reports print. A page without formula reads has only the ink-kind model's answer.
 */
export function readAsHandwriting(r: PageRecognition): boolean {
  const reads = new Set<MathRead>(r.formula ? [r.formula] : []);
  for (const l of r.lines) {
    if (l.math) reads.add(l.math);
    for (const s of l.segments ?? []) if (s.kind === 'math') reads.add(s.math);
  }
  if (!reads.size) return (r.handwriting ?? 0) >= HANDWRITING_THRESHOLD;
  const byHand = [...reads].filter((m) => m.handwritten).length;
  return byHand > reads.size - byHand;
}
