import type { ScanNoise } from './image/scan-noise.js';

/**
 * The maths recogniser's shared vocabulary. Three front ends (PDF glyphs, image crops, pen
 * strokes) turn a region into symbols with boxes; one 2-D layout parser turns symbols into LaTeX.
 * Coordinates are in the region's own units (pixels for images and strokes, PDF points for
 * glyphs) with the origin top-left and y growing downwards.
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * A horizontal line whose role the parser decides from its neighbours: minus sign, fraction bar,
 * overline (`\overline`, `\bar`) or underline. Front ends emit RULE for every thin horizontal stroke
 * (a PDF rule, a flat image component) instead of guessing.
 */
export const RULE = '@rule';

/**
 * A radical sign. Its box spans the whole sign including the vinculum over the radicand, so the
 * radicand is what lies inside the box right of the hook. (The PDF front end merges the radical
 * glyph with its rule before parsing.)
 */
export const RADICAL = '\\sqrt';

/**
 * A frame of four rules (`\boxed`, `\fbox`). Its box is the frame's, so what it holds is what lies
 * inside the box. (The PDF front end joins two horizontal and two vertical rules into one.)
 */
export const FRAME = '\\boxed';

/** A horizontal brace over (under) what it spans; the front end joins its pieces and rules into one symbol. */
export const OVERBRACE = '\\overbrace';
export const UNDERBRACE = '\\underbrace';

/** Font style of a symbol when the front end knows it (PDF fonts do; images and strokes do not). */
/** `bold` is upright bold (`\mathbf`, a bold digit); `bold-italic` is what `\boldsymbol` and `\bm` set (a bold maths font's letters and symbols). */
export type SymbolStyle = 'italic' | 'upright' | 'bold' | 'bold-italic' | 'blackboard' | 'calligraphic' | 'script' | 'fraktur' | 'typewriter';

export interface MathSymbol {
  /**
   * One LaTeX token: a character ('x', '2', '+', '(', '|', '[', ',') or a control word
   * ('\\alpha', '\\sum', '\\int', '\\infty', '\\leq', '\\rightarrow', '\\prime'), or RULE / RADICAL.
   */
  latex: string;
  box: Box;
  /** The front end's probability for this label, 0..1 (1 for PDF glyphs). */
  confidence: number;
  /**
   * Runner-up labels with their probabilities, best first (images and strokes); where the context
   * chose between readings of one shape (strokes/relabel.ts settledAmong), the readings it set
   * aside come last.
   */
  alternatives?: Array<{ latex: string; confidence: number }>;
  /**
   * The power that turns the chosen label's probability into the calibrated confidence the result
   * reports (image symbols: image/calibration.ts); label choice weighs the probabilities themselves.
   * @defaultValue 1
   */
  confidenceExponent?: number;
  /** Baseline (y) when known: PDF glyphs know theirs; image symbols do not. */
  baseline?: number;
  /** Font size in region units when known (PDF glyphs). */
  size?: number;
  style?: SymbolStyle;
  /** RADICAL only, when the front end saw the sign's shape (pen strokes): x of the bottom of its tick, where a radicand may begin. */
  hookEnd?: number;
}

/** An 8-bit greyscale raster, one byte per pixel, row-major, dark ink on a light background. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
  /**
   * The paper noise of the page this image was cut from (image/binarise.ts `scanNoise`), which a
   * small crop cannot measure: null, a clean page; absent, measured on the image itself.
   */
  scan?: ScanNoise | null;
}

/** One pen stroke: matching arrays of coordinates, in drawing order. */
export interface Stroke {
  x: number[];
  y: number[];
}

export type MathRegion =
  | { kind: 'image'; image: GrayImage }
  | { kind: 'strokes'; strokes: Stroke[] }
  /** Symbols already labelled by their source (a born-digital PDF's glyphs and rules). */
  | { kind: 'symbols'; symbols: MathSymbol[] };

export interface MathResult {
  /** LaTeX without delimiters; '' when nothing was recognised. */
  latex: string;
  /** Product-style confidence of the whole formula, 0..1, derived from the symbols' probabilities. */
  confidence: number;
  /** The symbols the LaTeX was built from, in reading order. */
  boxes: Array<{ latex: string; box: Box; confidence: number }>;
  /**
   * A multi-line display (`aligned`/`gathered` at the top level): each row's vertical extent, top
   * to bottom, so the page can give each row its own equation number.
   */
  rows?: RowSpan[];
}

export interface RowSpan {
  y0: number;
  y1: number;
  /** The row's main baseline (not its scripts', limits' or fraction parts'), when the parser found one. */
  baseline?: number;
  /** The size of the row's main symbols, with the baseline. */
  em?: number;
  /** The relation or operator the row is aligned at, when the rows are aligned (`aligned`), and where its ink starts. */
  anchor?: { latex: string; x0: number };
}

/** The one interface the engine calls: `recognize(region) → {latex, confidence, boxes}`. */
export interface MathRecognizer {
  recognize(region: MathRegion): Promise<MathResult>;
}
