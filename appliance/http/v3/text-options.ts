import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { excludedAlphabets } from '../../../core/options/alphabets.js';

/**
 * The options of POST /v3/text (4.2). How the maths options act (text-mmd.ts, text-result.ts):
 * - math_inline_delimiters / math_display_delimiters wrap equations; a whole-image equation gets
 *   the inline pair, an equation line among other lines the display pair;
 * - rm_spaces (default true), rm_fonts, idiomatic_braces (single-character scripts) and
 *   idiomatic_eqn_arrays (aligned, gathered and cases kept; otherwise arrays, page/render/eqn-arrays.ts)
 *   rewrite each equation;
 * - numbers_default_to_math puts every number of the prose in inline maths (page/render/mmd.ts numbersAsMath);
 * - disable_itemize writes bulleted lines as read instead of an itemize environment;
 * - disable_lstlisting fences code (worker/inference/code-lines.ts) in backticks instead of a listing environment;
 * - alphabets_allowed removes the characters of the alphabets set to false (alphabets.ts);
 * - include_line_data, include_word_data, include_lines_json add the geometry of text-geometry.ts;
 * - include_smiles and include_inchi read structure diagrams as `<smiles>` (worker/chemistry/, docs/chemistry.md);
 * - confidence_threshold and confidence_rate_threshold (0.75 by default) answer math_confidence
 *   below them (text-result.ts checkConfidence);
 * Accepted and without effect, and why:
 * - include_equation_tags forces idiomatic_eqn_arrays, but the recogniser finds no equation
 *   numbers to turn into \tag (a number right of a formula is read as part of it);
 * - math_fonts_default_to_math: images carry no font information to act on;
 */

/** The data_options keys of spec 2.1; any other key is opts_unknown_data_option. */
export const DATA_OPTION_KEYS = [
  'include_svg',
  'include_table_html',
  'include_latex',
  'include_tsv',
  'include_asciimath',
  'include_mathml',
  'include_sub_math',
] as const;

const bool = z.boolean();
const unit = z.number().min(0).max(1);
const delimiters = z.tuple([z.string(), z.string()]);
const region = z.union([
  z.object({ top_left_x: z.number().int().min(0), top_left_y: z.number().int().min(0), width: z.number().int().min(1), height: z.number().int().min(1) }),
  z.object({}).strict(),
]);

/**
 * Every parameter of the spec 4.2 table, typed as the table says. Unknown top-level keys are
 * accepted and ignored (passthrough), as the hosted service does: clients written against a newer
 * option set must keep working when only the host changes. data_options keys are checked
 * separately (they have an error id of their own).
 */
export const textOptionsSchema = z
  .object({
    src: z.string().min(1).optional(),
    metadata: z.record(z.unknown()).optional(),
    tags: z.array(z.string()).optional(),
    async: bool.optional(),
    callback: z.record(z.unknown()).optional(),
    formats: z.union([z.array(z.enum(['text', 'data', 'html', 'latex_styled'])), z.record(z.unknown())]).optional(),
    data_options: z.record(bool).optional(),
    include_detected_alphabets: bool.optional(),
    alphabets_allowed: z.record(z.unknown()).optional(),
    region: region.optional(),
    enable_blue_hsv_filter: bool.optional(),
    confidence_threshold: unit.optional(),
    confidence_rate_threshold: unit.optional(),
    include_equation_tags: bool.optional(),
    include_line_data: bool.optional(),
    include_word_data: bool.optional(),
    include_lines_json: bool.optional(),
    enable_document_layout: bool.optional(),
    include_diagram_text: bool.optional(),
    disable_lstlisting: bool.optional(),
    disable_itemize: bool.optional(),
    include_smiles: bool.optional(),
    include_inchi: bool.optional(),
    include_geometry_data: bool.optional(),
    include_page_info: z.union([bool, z.array(z.string())]).optional(),
    auto_rotate_confidence_threshold: unit.optional(),
    rm_spaces: bool.optional(),
    rm_fonts: bool.optional(),
    idiomatic_eqn_arrays: bool.optional(),
    idiomatic_braces: bool.optional(),
    numbers_default_to_math: bool.optional(),
    math_fonts_default_to_math: bool.optional(),
    math_inline_delimiters: delimiters.optional(),
    math_display_delimiters: delimiters.optional(),
    enable_spell_check: bool.optional(),
    enable_tables_fallback: bool.optional(),
    fullwidth_punctuation: bool.nullable().optional(),
  })
  .passthrough();

export type TextOptions = z.infer<typeof textOptionsSchema>;
export type Region = { top_left_x: number; top_left_y: number; width: number; height: number };

/** Validates a /v3/text body or options_json; throws bad_request or opts_unknown_data_option. */
export function parseTextOptions(raw: unknown): TextOptions {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'The body must be a JSON object');
  const dataOptions = (raw as Record<string, unknown>).data_options;
  if (dataOptions && typeof dataOptions === 'object' && !Array.isArray(dataOptions)) {
    const unknown = Object.keys(dataOptions).filter((k) => !(DATA_OPTION_KEYS as readonly string[]).includes(k));
    if (unknown.length) throw new ApiError('opts_unknown_data_option', `Unknown data_options key: ${unknown.join(', ')}`, { key: unknown[0] });
  }
  const parsed = textOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new ApiError('bad_request', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), { field });
  }
  const opts = parsed.data;
  excludedAlphabets(opts.alphabets_allowed);
  if (opts.include_word_data && opts.enable_document_layout) {
    throw new ApiError('bad_request', 'include_word_data cannot be combined with enable_document_layout', { field: 'include_word_data' });
  }
  return opts;
}

/** The region to crop, or null for none (an empty object counts as none, 2.1). */
export function regionOf(opts: TextOptions): Region | null {
  const r = opts.region as Partial<Region> | undefined;
  return r && r.width !== undefined ? (r as Region) : null;
}

/** Which of the formats the caller asked for; absent, empty array or object → text only. */
export function wantedFormats(opts: TextOptions): Set<string> {
  const f = opts.formats;
  const list = Array.isArray(f) ? f : f && typeof f === 'object' ? Object.keys(f).filter((k) => (f as Record<string, unknown>)[k]) : [];
  return new Set(list.length ? list : ['text']);
}
