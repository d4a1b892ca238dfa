import { formulaConfidence, formulaRate, type OcrWord, type PageLine, type PageRecognition } from '../model.js';
import type { LineEntry, PageLines } from './lines-json.js';
import { inlineMath, lineMmd, styleLatex } from './mmd.js';
import type { LineType } from '../processors/blocks.js';
import type { RenderOptions } from './options.js';

/**
 * Geometry of a /v3/text answer (the spec shows none of these shapes; docs/v3-text-geometry.md
 * documents them). Coordinates are pixels of the processed image (after the region crop),
 * whatever rotation was applied to read it.
 */

type Box = PageLine['box'];

export const round = (n: number) => Math.round(n * 1e6) / 1e6;
type Contour = [number, number][];

/** One entry of line_data. */
export interface LineData {
  /** `math` for a display equation; `table`, `code` or `list_item` for a line of such a block; else `text`. */
  type: LineType;
  /** The box's corners, clockwise from the top left. */
  cnt: Contour;
  included: boolean;
  is_printed: boolean;
  is_handwritten: boolean;
  /** The line's MMD: a text line with its inline maths in inline delimiters, a maths line in display delimiters. */
  text: string;
  confidence: number;
  confidence_rate: number;
}

/** One entry of word_data: a word of a text line, or an inline formula (then with its LaTeX). */
export interface WordData {
  type: 'text' | 'math';
  cnt: Contour;
  text: string;
  latex?: string;
  confidence: number;
  confidence_rate: number;
}

const contour = ({ x, y, width: w, height: h }: Box): Contour =>
  [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ].map(([a, b]) => [Math.round(a!), Math.round(b!)] as [number, number]);

/**
 * Text lines: both confidences are the text model's mean per-character maximum probability (with
 * inline maths, the words' mean times each formula's product). Maths lines: the product of the
 * symbol probabilities and their geometric mean. A maths line is handwritten when the handwriting
 * classifier read it; text lines are the printed-text model's.
 */
export function lineData(l: PageLine, opts: RenderOptions, type: LineType = l.math ? 'math' : 'text'): LineData {
  return {
    type,
    cnt: contour(l.box),
    included: true,
    is_printed: !l.math?.handwritten,
    is_handwritten: l.math?.handwritten === true,
    text: lineMmd(l, opts),
    confidence: round(l.confidence),
    confidence_rate: round(l.math ? formulaRate(l.math) : l.confidence),
  };
}

/** The words of a text line, an inline formula standing as one word; a maths line is one maths word. */
export function wordData(l: PageLine, opts: RenderOptions): WordData[] {
  const word = (w: OcrWord): WordData => ({
    type: 'text',
    cnt: contour(w.box),
    text: w.text,
    confidence: round(w.confidence),
    confidence_rate: round(w.confidence),
  });
  const formula = (latex: string, box: Box, confidence: number, rate: number): WordData => {
    const styled = styleLatex(latex, opts);
    return { type: 'math', cnt: contour(box), text: inlineMath(styled, opts), latex: styled, confidence: round(confidence), confidence_rate: round(rate) };
  };
  if (l.math) return [formula(l.math.latex, l.box, formulaConfidence(l.math), formulaRate(l.math))];
  if (l.segments)
    return l.segments.flatMap((s) => (s.kind === 'text' ? s.words.map(word) : [formula(s.math.latex, s.box, formulaConfidence(s.math), formulaRate(s.math))]));
  return (l.words ?? []).map(word);
}

/**
 * lines_json: the page-region document of a PDF's lines.json (page/render/lines-json.ts)
 * for the one page an image is: region in pixels, font_size the line's height in pixels, text the
 * line's MMD, every line part of the output.
 */
export function linesJson(
  r: PageRecognition,
  opts: RenderOptions,
  typeOf: (l: PageLine) => LineType = (l) => (l.math ? 'math' : 'text'),
): { pages: PageLines<LineEntry>[] } {
  const lines = r.lines.map((l, i): LineEntry => ({
    id: `1-${i + 1}`,
    type: typeOf(l),
    text: lineMmd(l, opts),
    region: { top_left_x: Math.round(l.box.x), top_left_y: Math.round(l.box.y), width: Math.round(l.box.width), height: Math.round(l.box.height) },
    font_size: Math.round(l.box.height),
    conversion_output: true,
  }));
  return { pages: [{ page: 1, page_width: r.width, page_height: r.height, lines }] };
}
