import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dress, dressedPagePdf } from '../../../test/support/dressed-page.js';
import type { LatexPdf } from '../../../test/support/latex-pdf.js';
import { acceptFigures, isPictureLine } from '../../../page/processors/figure-regions.js';
import { renderPage } from './figure-crop.js';
import { scannedCandidates } from './figure-scan.js';
import { openPdf, readPage } from './pdf.js';
import { glyphsToLines } from './text-layer.js';

/**
 * Figures of a scanned page (figure-scan.ts) on pages dressed to their edges, as slides and
 * screen documents are (test/support/dressed-page.ts): a coloured bar down the page's side, a
 * dark slide background. The page is rendered by pdftoppm as a scanned page is, and read by a
 * perfect OCR: the typeset page's own lines.
 */

/** A picture on the page: a filled box this many points wide and high. */
const PICTURE_PT = { width: 150, height: 90 };

async function figuresOf(pdf: LatexPdf) {
  const doc = await openPdf(pdf.path);
  const page = await doc.getPage(1);
  const lines = glyphsToLines((await readPage(page, false)).glyphs).filter((l) => !isPictureLine(l));
  await doc.destroy();
  const image = await renderPage(pdf.path, 1);
  return acceptFigures(scannedCandidates(image.gray, lines), lines);
}

describe('figures of scanned pages dressed to the edge', () => {
  const pdfs: LatexPdf[] = [];
  const compile = async (dress: Dress, more?: string) => {
    const pdf = await dressedPagePdf(dress, more);
    pdfs.push(pdf);
    return figuresOf(pdf);
  };
  let barred: Awaited<ReturnType<typeof figuresOf>>;
  let dark: Awaited<ReturnType<typeof figuresOf>>;
  let pictured: Awaited<ReturnType<typeof figuresOf>>;

  beforeAll(async () => {
    barred = await compile('side bar');
    dark = await compile('dark background');
    pictured = await compile('side bar', `\\begin{center}\\rule{${PICTURE_PT.width}pt}{${PICTURE_PT.height}pt}\\end{center}`);
  }, 60_000);
  afterAll(async () => {
    for (const pdf of pdfs) await pdf.cleanup();
  });

  it('keeps the text of a page with a coloured bar down its side (no page-tall figure)', () => {
    expect(barred.lines.length).toBeGreaterThanOrEqual(3);
    expect(barred.figures).toEqual([]);
  });

  it('keeps the text of a slide on a dark background (no page-sized figure)', () => {
    expect(dark.lines.length).toBeGreaterThanOrEqual(3);
    expect(dark.figures).toEqual([]);
  });

  it('still finds a picture on a side-barred page, at its own size', () => {
    expect(pictured.figures).toHaveLength(1);
    const [figure] = pictured.figures;
    expect(figure!.x1 - figure!.x0).toBeCloseTo(PICTURE_PT.width, -1);
    expect(figure!.y1 - figure!.y0).toBeCloseTo(PICTURE_PT.height, -1);
  });
});
