import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLayout } from '../layout/index.js';
import { normaliseLatex } from '../latex-normalise.js';
import { readPdfMath, symbolsInRegion } from './index.js';
import { compileLatex, openTestPdf, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/**
 * Symbols TeX prints with one glyph, or whose names pdf.js confuses, from the same display typeset
 * by pdflatex (whose ToUnicode map names CMMI's glyphs by shape) and by latex + dvips + Ghostscript
 * (no ToUnicode: pdf.js names them from the Adobe glyph list, which has the two phis the other way
 * round): the straight `\phi` and the curly `\varphi`, the binary `\setminus` and the ordinary
 * `\backslash` (CMSY's one backslash glyph, with or without the operator's spaces).
 */
const DISPLAY = String.raw`\[ \phi(t)+\varphi(s)=\phi_{\varphi}^{\phi},\quad \Omega\backslash S_u = A\setminus B \]`;
const EXPECTED = normaliseLatex(String.raw`\phi(t)+\varphi(s)=\phi_{\varphi}^{\phi},\quad \Omega\backslash S_u = A\setminus B`);

const typeset: Array<{ pdf: LatexPdf; doc: PDFDocumentProxy }> = [];

beforeAll(async () => {
  for (const viaDvips of [false, true]) {
    const pdf = await compileLatex(DISPLAY, { viaDvips });
    typeset.push({ pdf, doc: await openTestPdf(pdf.path) });
  }
}, 60_000);

afterAll(async () => {
  for (const { pdf, doc } of typeset) {
    await doc.destroy();
    await pdf.cleanup();
  }
});

async function read(doc: PDFDocumentProxy): Promise<string> {
  const math = await readPdfMath(await doc.getPage(1));
  return normaliseLatex(parseLayout(symbolsInRegion(math, { x0: 0, y0: 0, x1: math.width, y1: math.height })).latex);
}

describe('one glyph, two symbols', () => {
  it('reads each phi by its shape and each backslash by its spacing, from a pdflatex PDF and from a dvips PDF', async () => {
    expect(await read(typeset[0]!.doc)).toBe(EXPECTED);
    expect(await read(typeset[1]!.doc)).toBe(EXPECTED);
  });
});
