import { afterAll, beforeAll } from 'vitest';
import { convertDocument } from '../../worker/document/pipeline/index.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { compileLatex, type LatexPdf } from './latex-pdf.js';

const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';

/**
 * Displays typeset by pdflatex between paragraphs of prose, for a describe block: the page is made
 * and read through the document pipeline (`idiomatic_eqn_arrays` on) before its tests. `displays`
 * returns the MMD's `\[ … \]` blocks in order, normalised; `mmd` the whole page.
 */
export function displaysOnPage(sources: string[]): { displays: () => string[]; mmd: () => string } {
  let pdf: LatexPdf;
  let mmd = '';
  beforeAll(async () => {
    pdf = await compileLatex([PROSE, ...sources.flatMap((source) => [source, PROSE])].join('\n'));
    ({ mmd } = await convertDocument(pdf.path, { idiomaticEqnArrays: true }));
  }, 60_000);
  afterAll(() => pdf?.cleanup());
  return { displays: () => [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((match) => normaliseLatex(match[1]!)), mmd: () => mmd };
}
