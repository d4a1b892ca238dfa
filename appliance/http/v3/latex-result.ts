import sharp from 'sharp';
import { ApiError } from '../../../core/errors.js';
import { OCR_VERSION } from '../../../core/versions.js';
import { isWordy } from '../../../page/processors/words.js';
import { formulaConfidence, formulaRate, type PageRecognition } from '../../../page/model.js';
import { detectedAlphabets } from '../../../page/processors/alphabets.js';
import { latexFormats, wolframFromAsciimath } from '../../../page/render/latex-formats.js';
import type { LatexFormat, LatexParams } from './latex-options.js';
import { mmdData } from './mmd-render.js';
import { DEFAULT_AUTO_ROTATE_THRESHOLD, inkKind } from './text-result.js';
import type { Region } from './text-options.js';

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The LaTeX /v3/latex reports for a recognised image. With ocr [math] it is the whole image read
 * as one formula. With ocr [math, text] the image was read line by line: a single maths line is
 * that formula; otherwise each line becomes a row (text lines as \text{…}) of an array.
 */
export function latexOfPage(r: PageRecognition): { latex: string; confidence: number; confidenceRate: number } {
  if (r.formula) return { latex: r.formula.latex, confidence: formulaConfidence(r.formula), confidenceRate: formulaRate(r.formula) };
  const rows = r.lines.map((l) => (l.math ? l.math.latex : `\\text{${l.text.replace(/([{}\\#$%&_^~])/g, '\\$1')}}`));
  const confidence = r.lines.reduce((p, l) => p * l.confidence, r.lines.length ? 1 : 0);
  const rates = r.lines.map((l) => (l.math ? formulaRate(l.math) : l.confidence));
  const confidenceRate = rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : 0;
  const latex = rows.length <= 1 ? (rows[0] ?? '') : `\\begin{array}{l}${rows.join(' \\\\ ')}\\end{array}`;
  return { latex, confidence, confidenceRate };
}

/**
 * detection_map (2.2) from what the engine observed, each 0 or 1: is_blank (no ink), is_inverted
 * (light ink on a dark ground: mean grey under half), is_printed (ink the worker did not read as
 * handwriting: text-result.ts inkKind), is_not_math (the text read is prose), contains_table
 * (an array or tabular in the LaTeX). Folio has no chart, diagram or graph detector: those read 0.
 */
export async function detections(r: PageRecognition, png: Buffer, latex: string): Promise<Record<string, number>> {
  const { channels } = await sharp(png).greyscale().stats();
  const text = r.lines
    .filter((l) => l.kind !== 'math')
    .map((l) => l.text)
    .join(' ');
  const blank = r.blank === true || (!latex && !r.lines.length);
  return {
    contains_chart: 0,
    contains_diagram: 0,
    contains_graph: 0,
    contains_table: /\\begin\{(?:tabular|array)\}/.test(latex) ? 1 : 0,
    is_blank: blank ? 1 : 0,
    is_inverted: channels[0]!.mean < 128 ? 1 : 0,
    is_not_math: !blank && isWordy(text) ? 1 : 0,
    is_printed: !blank && inkKind(r).is_printed ? 1 : 0,
  };
}

/** The string formats asked for, from one LaTeX string (mathml and asciimath through mathpix-markdown-it). */
async function formatsOf(latex: string, params: LatexParams): Promise<Record<string, unknown>> {
  const wanted = new Set<LatexFormat>(params.formats);
  const all = latexFormats(latex, params.format_options ?? {});
  const out: Record<string, unknown> = {};
  for (const f of ['text', 'text_display', 'latex_normal', 'latex_styled', 'latex_simplified', 'latex_list'] as const) if (wanted.has(f)) out[f] = all[f];
  if (latex && (wanted.has('mathml') || wanted.has('asciimath') || wanted.has('wolfram'))) {
    const data = await mmdData(`\\(${all.latex_styled}\\)`, {
      include_mathml: wanted.has('mathml'),
      include_asciimath: wanted.has('asciimath') || wanted.has('wolfram'),
    });
    const ascii = data.find((d) => d.type === 'asciimath')?.value;
    if (wanted.has('mathml')) out.mathml = data.find((d) => d.type === 'mathml')?.value ?? '';
    if (wanted.has('asciimath')) out.asciimath = ascii ?? '';
    if (wanted.has('wolfram')) out.wolfram = ascii ? wolframFromAsciimath(ascii) : '';
  }
  return out;
}

/**
 * The 2.2 answer for one recognised image. position is the region read (the whole image when no
 * region was given). Throws math_confidence when latex_confidence falls below confidence_threshold.
 */
export async function buildLatexResult(
  requestId: string,
  r: PageRecognition,
  png: Buffer,
  params: LatexParams,
  region: Region | null,
): Promise<Record<string, unknown>> {
  const { latex, confidence, confidenceRate } = latexOfPage(r);
  if (params.confidence_threshold !== undefined && confidence < params.confidence_threshold) {
    throw new ApiError('math_confidence', `Confidence ${round(confidence)} is below the requested threshold ${params.confidence_threshold}`, {
      confidence: round(confidence),
    });
  }
  const map = await detections(r, png, latex);
  const threshold = params.auto_rotate_confidence_threshold ?? DEFAULT_AUTO_ROTATE_THRESHOLD;
  const turned = r.rotation !== undefined && r.rotation !== 0;
  const rotateConfidence = turned ? round(Math.min(1, r.rotationConfidence ?? 0)) : 0;
  const out: Record<string, unknown> = {
    request_id: requestId,
    version: OCR_VERSION,
    ...(await formatsOf(latex, params)),
    position: region ?? { top_left_x: 0, top_left_y: 0, width: r.width, height: r.height },
    detection_list: Object.keys(map).filter((k) => map[k] === 1),
    detection_map: map,
    image_width: r.width,
    image_height: r.height,
    latex_confidence: round(confidence),
    latex_confidence_rate: round(confidenceRate),
    auto_rotate_degrees: turned && threshold < 1 && rotateConfidence >= threshold ? r.rotation : 0,
    auto_rotate_confidence: rotateConfidence,
  };
  if (params.include_detected_alphabets) out.detected_alphabets = detectedAlphabets(r.lines);
  if (params.n_best !== undefined && r.formula?.candidates) {
    out.candidates = await Promise.all(
      r.formula.candidates.slice(0, params.n_best).map(async (c) => ({ ...(await formatsOf(c.latex, params)), latex_confidence: round(c.confidence) })),
    );
  }
  return out;
}
