import { ApiError } from '../../../core/errors.js';
import { OCR_VERSION } from '../../../core/versions.js';
import type { OcrPageResult } from '../../../worker/document/scanned-pages.js';
import { type DataOptions, mmdData, mmdToHtml } from './mmd-render.js';
import { type TextOptions, wantedFormats } from './text-options.js';

/** 4.2: auto_rotate_confidence_threshold default; 1 disables rotation reporting. */
export const DEFAULT_AUTO_ROTATE_THRESHOLD = 0.99;

/**
 * One entry of line_data (the spec does not show LineData; this is Folio's shape, close to the
 * hosted one):
 *   { type: 'text', cnt: [[x,y] ×4] (clockwise from top-left, pixels of the processed image,
 *     i.e. after the region crop), included: true, is_printed: true, is_handwritten: false,
 *     text, confidence, confidence_rate }
 * Both confidences are the recogniser's mean per-character maximum probability for the line.
 */
export interface LineData {
  type: 'text';
  cnt: [number, number][];
  included: boolean;
  is_printed: boolean;
  is_handwritten: boolean;
  text: string;
  confidence: number;
  confidence_rate: number;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * confidence: the product of the line confidences — the chance that every line is right if lines
 * err independently, which is what 2.1 calls "probability that the output is entirely correct".
 * confidence_rate: the character-weighted mean of the line confidences (overall quality).
 * A line's confidence is the engine's mean per-character max probability (worker/engine/text).
 * An image without text gets 0 for both.
 */
export function confidences(lines: OcrPageResult['lines']): { confidence: number; confidence_rate: number } {
  if (!lines.length) return { confidence: 0, confidence_rate: 0 };
  const product = lines.reduce((p, l) => p * l.confidence, 1);
  const chars = lines.reduce((n, l) => n + Math.max(1, l.text.length), 0);
  const mean = lines.reduce((s, l) => s + l.confidence * Math.max(1, l.text.length), 0) / chars;
  return { confidence: round(Math.min(1, product)), confidence_rate: round(Math.min(1, mean)) };
}

/**
 * The 2.1 result of one recognised image: text holds the recognised lines as MMD; html and data
 * are rendered from it by mathpix-markdown-it (mmd-render.ts), so every maths element and table
 * the text holds gets the data_options formats. Throws math_confidence when confidence falls
 * below confidence_threshold.
 */
export async function buildTextResult(requestId: string, r: OcrPageResult, opts: TextOptions): Promise<Record<string, unknown>> {
  const formats = wantedFormats(opts);
  const { confidence, confidence_rate } = confidences(r.lines);
  if (opts.confidence_threshold !== undefined && confidence < opts.confidence_threshold) {
    throw new ApiError('math_confidence', `Confidence ${confidence} is below the requested threshold ${opts.confidence_threshold}`, { confidence });
  }
  // The engine reports the turn it read the image at. auto_rotate_confidence is the confidence
  // that the image needed turning: the engine's rotation confidence when it turned, 0 upright.
  // The turn is reported only when that confidence reaches the threshold; 1 disables it.
  const threshold = opts.auto_rotate_confidence_threshold ?? DEFAULT_AUTO_ROTATE_THRESHOLD;
  const turned = r.rotation !== undefined && r.rotation !== 0;
  const rotateConfidence = turned ? round(Math.min(1, r.rotationConfidence ?? 0)) : 0;
  const degrees = turned && threshold < 1 && rotateConfidence >= threshold ? r.rotation! : 0;

  const text = r.lines.map((l) => l.text).join('\n');
  const out: Record<string, unknown> = { request_id: requestId, version: OCR_VERSION };
  if (formats.has('text')) out.text = text;
  if (formats.has('html')) out.html = await mmdToHtml(text);
  out.data = await mmdData(text, (opts.data_options ?? {}) as DataOptions);
  Object.assign(out, {
    confidence, confidence_rate, is_printed: true, is_handwritten: false,
    auto_rotate_degrees: degrees, auto_rotate_confidence: rotateConfidence,
    image_width: r.width, image_height: r.height,
  });
  if (opts.include_line_data) out.line_data = r.lines.map(lineData);
  return out;
}

function lineData(l: OcrPageResult['lines'][number]): LineData {
  const { x, y, width: w, height: h } = l.box;
  return {
    type: 'text',
    cnt: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([a, b]) => [Math.round(a!), Math.round(b!)] as [number, number]),
    included: true, is_printed: true, is_handwritten: false,
    text: l.text, confidence: round(l.confidence), confidence_rate: round(l.confidence),
  };
}
