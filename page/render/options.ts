import type { SectionNumbers } from './section-numbers.js';

/**
 * The output options (spec 4.2, 4.7) the page renderers honour. Each surface's request schema
 * (appliance/http/v3/text-options.ts, the PDF options) carries them under these names; a renderer
 * takes only what it reads.
 */
export interface RenderOptions {
  /** Default true: drop the spaces LaTeX ignores. */
  rm_spaces?: boolean;
  rm_fonts?: boolean;
  /** Single-character scripts without braces (`x^2`). */
  idiomatic_braces?: boolean;
  idiomatic_eqn_arrays?: boolean;
  include_equation_tags?: boolean;
  math_inline_delimiters?: [string, string];
  math_display_delimiters?: [string, string];
  disable_itemize?: boolean;
  disable_lstlisting?: boolean;
  numbers_default_to_math?: boolean;
  /** A document's section numbering (4.7 auto_number_sections, remove_section_numbering); absent: headings as printed. */
  sections?: SectionNumbers;
  /** Chemistry: InChI beside the SMILES of a structure. */
  include_inchi?: boolean;
}
