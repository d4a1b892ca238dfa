import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { LATEX_TRANSFORMS } from '../../../page/render/latex-formats.js';
import { legacyCallbackSchema } from './legacy-callback.js';

/** The output formats of 4.4. */
export const LATEX_FORMATS = [
  'text',
  'text_display',
  'latex_normal',
  'latex_styled',
  'latex_simplified',
  'latex_list',
  'mathml',
  'asciimath',
  'wolfram',
] as const;
export type LatexFormat = (typeof LATEX_FORMATS)[number];

const unit = z.number().min(0).max(1);
const delimiters = z.tuple([z.string(), z.string()]);
const region = z.union([
  z.object({ top_left_x: z.number().int().min(0), top_left_y: z.number().int().min(0), width: z.number().int().min(1), height: z.number().int().min(1) }),
  z.object({}).strict(),
]);

/**
 * The parameters of POST /v3/latex (4.4) that every image of a legacy batch shares too (4.5):
 * everything but src and callback. Unknown keys pass, as on /v3/text.
 * skip_recrop and enable_blue_hsv_filter are accepted and change nothing: Folio reads the image
 * as sent, and has no colour filter. include_detected_alphabets adds detected_alphabets as on
 * /v3/text (alphabets.ts), from the text the image was read as.
 */
export const latexParamsSchema = z
  .object({
    formats: z.array(z.enum(LATEX_FORMATS)).min(1),
    ocr: z
      .array(z.enum(['math', 'text']))
      .min(1)
      .refine((o) => o.includes('math'), 'must include math')
      .default(['math']),
    format_options: z
      .object({ transforms: z.array(z.enum(LATEX_TRANSFORMS)).optional(), math_delims: delimiters.optional(), displaymath_delims: delimiters.optional() })
      .optional(),
    tags: z.array(z.string()).optional(),
    async: z.boolean().optional(),
    metadata: z.record(z.unknown()).optional(),
    skip_recrop: z.boolean().optional(),
    confidence_threshold: unit.optional(),
    beam_size: z.number().int().min(1).max(10).optional(),
    n_best: z.number().int().min(1).max(10).optional(),
    region: region.optional(),
    include_detected_alphabets: z.boolean().optional(),
    auto_rotate_confidence_threshold: unit.optional(),
    enable_blue_hsv_filter: z.boolean().optional(),
  })
  .passthrough();

export const latexOptionsSchema = latexParamsSchema.extend({ src: z.string().min(1).optional(), callback: legacyCallbackSchema.optional() });

export type LatexParams = z.infer<typeof latexParamsSchema>;
export type LatexOptions = z.infer<typeof latexOptionsSchema>;

/** Zod's first problem as bad_request with the field it concerns. */
export function zodBadRequest(error: z.ZodError): ApiError {
  const field = error.issues[0]!.path.join('.');
  return new ApiError('bad_request', error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), { field });
}

/** n_best needs beam_size and may not exceed it (4.4). */
export function checkBeam(o: { beam_size?: number; n_best?: number }): void {
  if (o.n_best === undefined) return;
  if (o.beam_size === undefined) throw new ApiError('bad_request', 'n_best needs beam_size', { field: 'n_best' });
  if (o.n_best > o.beam_size) throw new ApiError('bad_request', `n_best (${o.n_best}) may not exceed beam_size (${o.beam_size})`, { field: 'n_best' });
}

/** Validates a /v3/latex body; throws bad_request naming the field. */
export function parseLatexOptions(raw: unknown): LatexOptions {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'The body must be a JSON object');
  const parsed = latexOptionsSchema.safeParse(raw);
  if (!parsed.success) throw zodBadRequest(parsed.error);
  checkBeam(parsed.data);
  return parsed.data;
}
