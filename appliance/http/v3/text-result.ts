import { ApiError } from '../../../core/errors.js';
import { OCR_VERSION } from '../../../core/versions.js';
import { type AssemblyOptions, isAssembled } from '../../../page/assemble.js';
import { formulaRate, type PageLine, type PageRecognition, readAsHandwriting } from '../../../page/model.js';
import { lineTypes } from '../../../page/processors/blocks.js';
import { imagePage } from '../../../page/render/image-page.js';
import { lineData, linesJson, round, wordData } from '../../../page/render/line-data.js';
import { styleLatex } from '../../../page/render/mmd.js';
import { type DataOptions, mmdData, mmdToHtml } from './mmd-render.js';
import { type TextOptions, wantedFormats } from './text-options.js';

/** 4.2: confidence_rate_threshold default (symbol level). */
export const DEFAULT_CONFIDENCE_RATE_THRESHOLD = 0.75;

/**
 * 4.2's two confidence errors, both math_confidence: confidence under confidence_threshold (when
 * given), and confidence_rate — the per-symbol and per-character quality — under
 * confidence_rate_threshold (0.75 unless given). An answer with nothing read is no error: it is
 * an empty answer.
 */
export function checkConfidence(opts: TextOptions, c: { confidence: number; confidence_rate: number }, readSomething: boolean): void {
  if (opts.confidence_threshold !== undefined && c.confidence < opts.confidence_threshold) {
    throw new ApiError('math_confidence', `Confidence ${c.confidence} is below the requested threshold ${opts.confidence_threshold}`, {
      confidence: c.confidence,
    });
  }
  const rateThreshold = opts.confidence_rate_threshold ?? DEFAULT_CONFIDENCE_RATE_THRESHOLD;
  if (readSomething && c.confidence_rate < rateThreshold) {
    throw new ApiError('math_confidence', `Confidence rate ${c.confidence_rate} is below the threshold ${rateThreshold}`, {
      confidence: c.confidence,
      confidence_rate: c.confidence_rate,
    });
  }
}

/**
 * 2.1's is_handwritten and is_printed: one or the other, as the worker read the page
 * (readAsHandwriting). An image without ink is neither; a worker without the ink-kind model gives
 * no evidence of handwriting, and the image counts as printed as long as it has ink.
 */
export function inkKind(r: PageRecognition): { is_printed: boolean; is_handwritten: boolean } {
  if (r.blank) return { is_printed: false, is_handwritten: false };
  const handwritten = readAsHandwriting(r);
  return { is_printed: !handwritten, is_handwritten: handwritten };
}

/** 4.2: auto_rotate_confidence_threshold default; 1 disables rotation reporting. */
export const DEFAULT_AUTO_ROTATE_THRESHOLD = 0.99;

/**
 * confidence: the product of the line confidences — the chance that every line is right if lines
 * err independently, which is what 2.1 calls "probability that the output is entirely correct".
 * A text line's confidence is the text model's mean per-character max probability (with inline
 * maths, times each formula's product); a maths line's is its calibrated chance of being exact
 * (worker/inference/formula-confidence.ts), or the product of its symbol probabilities where the
 * worker had no calibration for it (handwriting).
 * confidence_rate: overall quality per unit read — the mean of the per-character (text) and
 * per-symbol (maths: the calibrated chance, else the geometric mean) confidences, weighted by
 * characters and symbols; a line with inline maths counts its words' characters and its
 * formulas' symbols apart.
 * An image without text gets 0 for both.
 */
export function confidences(lines: PageLine[]): { confidence: number; confidence_rate: number } {
  if (!lines.length) return { confidence: 0, confidence_rate: 0 };
  const product = lines.reduce((p, l) => p * l.confidence, 1);
  const parts = lines.flatMap(qualityUnits);
  const units = parts.reduce((n, p) => n + p.weight, 0);
  // Chemistry lines have no characters or symbols to rate: an image of structures alone is rated by their confidence.
  const mean = units ? parts.reduce((s, p) => s + p.rate * p.weight, 0) / units : product;
  return { confidence: round(Math.min(1, product)), confidence_rate: round(Math.min(1, mean)) };
}

/** A line's parts with their per-unit quality and how many units (characters, symbols) each holds. */
function qualityUnits(l: PageLine): { rate: number; weight: number }[] {
  if (l.chemistry) return [];
  if (l.math) return [{ rate: formulaRate(l.math), weight: Math.max(1, l.math.symbolCount) }];
  if (!l.segments) return [{ rate: l.confidence, weight: Math.max(1, l.text.length) }];
  return l.segments.flatMap((s) =>
    s.kind === 'math'
      ? [{ rate: formulaRate(s.math), weight: Math.max(1, s.math.symbolCount) }]
      : s.words.map((w) => ({ rate: w.confidence, weight: Math.max(1, w.text.length) })),
  );
}

/** What the inference worker is asked to assemble a /v3/text image with (page/assemble.ts). */
export function assemblyOf(opts: TextOptions): AssemblyOptions {
  return {
    alphabetsAllowed: opts.alphabets_allowed as Record<string, boolean> | undefined,
    fullwidthPunctuation: opts.fullwidth_punctuation,
    // 4.2 rule 3: headers, footers and page numbers (no subtype) are kept only by true, the default here.
    dropPageInfo: opts.include_page_info !== undefined && opts.include_page_info !== true,
  };
}

/**
 * The 2.1 result of one recognised image, which the inference worker read and assembled
 * (page/assemble.ts, asked for with assemblyOf): text is the page rendered as MMD by
 * page/render/image-page.ts, as a scanned page of a document is;
 * html and data are rendered from it by mathpix-markdown-it (mmd-render.ts), so every maths
 * element and table the text holds gets the data_options formats. When the whole image is one
 * equation, latex_styled (if asked for in formats) is that equation. Throws math_confidence as
 * checkConfidence says.
 */
export async function buildTextResult(requestId: string, r: PageRecognition, opts: TextOptions): Promise<Record<string, unknown>> {
  // A worker older than page assembly in the workers answers recognised lines only.
  if (!isAssembled(r)) throw new ApiError('sys_exception', 'The inference worker did not assemble the page; update the workers');
  const formats = wantedFormats(opts);
  const page = imagePage(r, opts);
  const { confidence, confidence_rate } = confidences(r.lines);
  checkConfidence(
    opts,
    { confidence, confidence_rate },
    r.lines.some((l) => !l.chemistry),
  );
  // The engine reports the turn it read the image at. auto_rotate_confidence is the confidence
  // that the image needed turning: the engine's rotation confidence when it turned, 0 upright.
  // The turn is reported only when that confidence reaches the threshold; 1 disables it.
  const threshold = opts.auto_rotate_confidence_threshold ?? DEFAULT_AUTO_ROTATE_THRESHOLD;
  const turned = r.rotation !== undefined && r.rotation !== 0;
  const rotateConfidence = turned ? round(Math.min(1, r.rotationConfidence ?? 0)) : 0;
  const degrees = turned && threshold < 1 && rotateConfidence >= threshold ? r.rotation! : 0;

  const { blocks, mmd: text } = page;
  const { single } = r.layout;
  const out: Record<string, unknown> = { request_id: requestId, version: OCR_VERSION };
  if (formats.has('text')) out.text = text;
  if (single && formats.has('latex_styled')) out.latex_styled = styleLatex(r.formula!.latex, opts);
  if (formats.has('html')) out.html = await mmdToHtml(text);
  // data only when asked for: in formats, or by data_options naming what it should hold.
  if (formats.has('data') || opts.data_options) out.data = await mmdData(text, (opts.data_options ?? {}) as DataOptions);
  Object.assign(out, {
    confidence,
    confidence_rate,
    ...inkKind(r),
    auto_rotate_degrees: degrees,
    auto_rotate_confidence: rotateConfidence,
    image_width: r.width,
    image_height: r.height,
  });
  if (opts.include_detected_alphabets) out.detected_alphabets = r.layout.alphabets;
  const types = lineTypes(blocks);
  const typeOf = (l: PageLine) => types.get(l) ?? (l.math ? 'math' : l.chemistry ? 'chemistry' : 'text');
  if (opts.include_line_data) out.line_data = r.lines.map((l) => lineData(l, opts, typeOf(l)));
  if (opts.include_word_data) out.word_data = r.lines.flatMap((l) => wordData(l, opts));
  if (opts.include_lines_json ?? opts.enable_document_layout) out.lines_json = linesJson(r, opts, typeOf);
  return out;
}
