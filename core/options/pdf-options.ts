import { z } from 'zod';
import { alphabetsProblem } from './alphabets.js';

const delimiters = z.tuple([z.string(), z.string()]);

/** Conversion output extensions of spec 2.1 (keys of conversion_formats). */
export const CONVERSION_FORMATS = [
  'docx',
  'md',
  'tex.zip',
  'html',
  'pdf',
  'xlsx',
  'pptx',
  'mmd.zip',
  'md.zip',
  'html.zip',
  'latex.pdf',
  'mmd.overlay.pdf',
] as const;

export const conversionFormatsSchema = z.record(z.enum(CONVERSION_FORMATS), z.boolean());

/**
 * conversion_formats of a document (/v3/pdf and the Files API): the 2.1 extensions plus the keys
 * the hosted service's clients send: mmd (always produced; asking for it only shows its status),
 * latex (the LaTeX source, downloaded as .tex) and the page images jpg and png.
 */
export const DOCUMENT_CONVERSION_FORMATS = [...CONVERSION_FORMATS, 'mmd', 'latex', 'jpg', 'png'] as const;
export const documentConversionFormatsSchema = z.record(z.enum(DOCUMENT_CONVERSION_FORMATS), z.boolean());

/** Formats whose download extension differs from their conversion_formats key. */
const EXTENSION_OF_FORMAT: Record<string, string> = { latex: 'tex' };
const FORMAT_OF_EXTENSION: Record<string, string> = Object.fromEntries(Object.entries(EXTENSION_OF_FORMAT).map(([f, e]) => [e, f]));

/** The download extension of a conversion format (`latex` → `tex`, the rest as they are). */
export const extensionOfFormat = (format: string): string => EXTENSION_OF_FORMAT[format] ?? format;
/** The conversion format a download extension belongs to (`tex` → `latex`). */
export const formatOfExtension = (ext: string): string => FORMAT_OF_EXTENSION[ext] ?? ext;

/** The document options of POST /v3/pdf (spec 4.7), without the input fields. */
export const pdfOptionsSchema = z
  .object({
    streaming: z.boolean(),
    metadata: z.record(z.unknown()),
    /** Codes of core/options/alphabets.ts to booleans, checked when the request comes in. */
    alphabets_allowed: z.record(z.unknown()).superRefine((allowed, ctx) => {
      const problem = alphabetsProblem(allowed);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field.split('.')[1]!] });
    }),
    rm_spaces: z.boolean(),
    rm_fonts: z.boolean(),
    idiomatic_eqn_arrays: z.boolean(),
    include_equation_tags: z.boolean(),
    include_smiles: z.boolean(),
    include_chemistry_as_image: z.boolean(),
    /** InChI and InChIKey as attributes of each smiles element, as /v3/text's include_inchi (4.2). */
    include_inchi: z.boolean(),
    include_page_breaks: z.boolean(),
    include_hyperlinks: z.boolean(),
    include_page_info: z.union([z.boolean(), z.array(z.enum(['margin_note', 'qr_code']))]),
    disable_lstlisting: z.boolean(),
    disable_itemize: z.boolean(),
    numbers_default_to_math: z.boolean(),
    math_inline_delimiters: delimiters,
    math_display_delimiters: delimiters,
    page_ranges: z.string().max(1000),
    auto_number_sections: z.boolean(),
    remove_section_numbering: z.boolean(),
    preserve_section_numbering: z.boolean(),
    fullwidth_punctuation: z.boolean().nullable(),
    enable_spell_check: z.boolean(),
    enable_tables_fallback: z.boolean(),
    conversion_options: z.record(z.record(z.unknown())),
  })
  .partial()
  .strict()
  .superRefine((o, ctx) => {
    const numbering = [o.auto_number_sections, o.remove_section_numbering, o.preserve_section_numbering].filter((v) => v === true);
    if (numbering.length > 1)
      ctx.addIssue({
        code: 'custom',
        message: 'at most one of auto_number_sections, remove_section_numbering, preserve_section_numbering may be true',
        params: { id: 'opts_section_numbering' },
      });
  });

export type PdfOptions = z.infer<typeof pdfOptionsSchema>;
