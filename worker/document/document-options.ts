import type { PdfOptions } from '../../core/options/pdf-options.js';
import type { DocumentOptions } from './pipeline/index.js';
import { sectionNumbering } from '../../page/render/section-numbers.js';

/**
 * The 4.7 options of a document as the pipeline reads them: one mapping for POST /v3/pdf
 * (v3-pdf.ts) and for a private-cloud job's OCR options (pco-document.ts, the same schema), so
 * every option reaches every page of either.
 * @param pageTimeoutMs each route's own page limit
 * @param osraCpuSeconds the worker's budget for reading a structure diagram
 */
export function documentOptions(o: PdfOptions, pageTimeoutMs: number, osraCpuSeconds?: number): DocumentOptions {
  return {
    pageRanges: o.page_ranges,
    pageTimeoutMs,
    mathInlineDelimiters: o.math_inline_delimiters,
    mathDisplayDelimiters: o.math_display_delimiters,
    includePageBreaks: o.include_page_breaks,
    includeHyperlinks: o.include_hyperlinks,
    includePageInfo: o.include_page_info === true,
    includeEquationTags: o.include_equation_tags,
    disableItemize: o.disable_itemize,
    disableLstlisting: o.disable_lstlisting,
    rmSpaces: o.rm_spaces,
    rmFonts: o.rm_fonts,
    idiomaticEqnArrays: o.idiomatic_eqn_arrays,
    numbersDefaultToMath: o.numbers_default_to_math,
    // Checked by the schema (core/options/alphabets.ts): every value is a boolean.
    alphabetsAllowed: o.alphabets_allowed as Record<string, boolean> | undefined,
    fullwidthPunctuation: o.fullwidth_punctuation,
    sectionNumbering: sectionNumbering(o),
    // 4.7: include_smiles is true by default here.
    chemistry: {
      smiles: o.include_smiles ?? true,
      inchi: o.include_inchi === true,
      asImage: o.include_chemistry_as_image === true,
      cpuSeconds: osraCpuSeconds,
    },
  };
}
