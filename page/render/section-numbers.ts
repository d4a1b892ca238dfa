/**
 * The section numbers of a document's headings (4.7 auto_number_sections,
 * remove_section_numbering, preserve_section_numbering; at most one is true, and preserving is
 * the default). Headings come out of every page kind with the number they were printed with, if
 * any (page/processors/headings.ts). Removing drops that number; numbering drops it too and
 * writes each heading's place in the document instead, as LaTeX prints it (`2`, `2.1`, `2.1.3`).
 * A level-1 heading is a document's title (set larger than its sections): never numbered. One
 * instance serves a whole document, so numbers run on across pages.
 */

/** A printed section number at a heading's start (`2`, `2.1`, `2.1.`, `IV.`) and the space after it. */
const PRINTED_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVX]{1,5}\.)(?:\s+|$)/u;

export type SectionNumbering = 'auto' | 'remove';

export class SectionNumbers {
  /** How many sections of each level (level 2 at index 0) have been numbered, under the current parents. */
  private counts: number[] = [];

  constructor(readonly mode: SectionNumbering) {}

  /**
   * The MMD of a heading's lines, numbered as asked. A scan may read a section number as a line
   * of its own beside its title: that line is left empty, and the title takes the number.
   */
  heading(level: number, lines: string[]): string[] {
    const out = [...lines];
    out[0] = out[0]!.replace(PRINTED_NUMBER, '');
    const first = out.findIndex((l) => l !== '');
    if (this.mode === 'remove' || level < 2 || first < 0) return out;
    const depth = level - 1;
    this.counts = Array.from({ length: depth }, (_, i) => this.counts[i] ?? 0);
    this.counts[depth - 1]! += 1;
    out[first] = `${this.counts.join('.')} ${out[first]}`;
    return out;
  }
}

/** The numbering the three request options ask for; undefined where headings keep what they print. */
export function sectionNumbering(o: { auto_number_sections?: boolean; remove_section_numbering?: boolean }): SectionNumbering | undefined {
  if (o.auto_number_sections) return 'auto';
  if (o.remove_section_numbering) return 'remove';
  return undefined;
}
