import { concatTransformationMatrix, PDFDocument, popGraphicsState, pushGraphicsState, rgb, StandardFonts } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathBounds } from './glyph-ink.js';
import { readPdfMath } from './page-reader.js';

/** Operator-list replay on a hand-built page: rules under a transform, and glyph placement. */

/** pdf.js's own copies of the standard 14 fonts, which give a non-embedded Helvetica its outlines. */
const STANDARD_FONTS = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

async function page(standardFontDataUrl?: string) {
  const doc = await PDFDocument.create();
  const p = doc.addPage([300, 200]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  p.drawText('x', { x: 50, y: 100, size: 20, font });
  // A filled bar 40 x 0.5 pt at (100, 150) in PDF space, and the same bar drawn at the origin
  // under a cm that moves it by (100, 50) and doubles its length.
  p.drawRectangle({ x: 100, y: 150, width: 40, height: 0.5, color: rgb(0, 0, 0) });
  p.pushOperators(pushGraphicsState(), concatTransformationMatrix(2, 0, 0, 1, 100, 50));
  p.drawRectangle({ x: 0, y: 0, width: 40, height: 0.5, color: rgb(0, 0, 0) });
  p.pushOperators(popGraphicsState());
  // A square is not a rule.
  p.drawRectangle({ x: 200, y: 20, width: 30, height: 30, color: rgb(0, 0, 0) });
  p.drawLine({ start: { x: 20, y: 30 }, end: { x: 80, y: 30 }, thickness: 1 });
  const pdf = await getDocument({
    data: await doc.save(),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
    standardFontDataUrl,
  }).promise;
  return readPdfMath(await pdf.getPage(1));
}

describe('readPdfMath', () => {
  it('finds filled and stroked rules in page coordinates, honouring the transform', async () => {
    const { rules, height } = await page();
    const rounded = rules.map((r) => [r.x0, r.y0, r.x1, r.y1].map((v) => Math.round(v * 10) / 10)).sort((a, b) => a[1] - b[1]);
    expect(height).toBe(200);
    expect(rounded).toEqual([
      [100, 49.5, 140, 50],
      [100, 149.5, 180, 150],
      [20, 169.5, 80, 170.5],
    ]);
  });

  it('places a glyph on its baseline with its outline ink box', async () => {
    const { glyphs } = await page(STANDARD_FONTS);
    expect(glyphs).toHaveLength(1);
    const [x] = glyphs;
    expect(x.unicode).toBe('x');
    expect(x.baseline).toBeCloseTo(100, 5);
    expect(x.size).toBeCloseTo(20, 5);
    expect(x.exactInk).toBe(true);
    // Helvetica's x: ink from the baseline up to the x-height (about 0.52 em).
    expect(x.box.y1).toBeCloseTo(100, 0);
    expect(100 - x.box.y0).toBeGreaterThan(9);
    expect(100 - x.box.y0).toBeLessThan(12);
    expect(x.box.x0).toBeGreaterThanOrEqual(50);
    expect(x.box.x1).toBeLessThanOrEqual(x.x1 + 0.5);
  });

  it("falls back to the font's ascent and descent over the advance when there is no outline", async () => {
    const [x] = (await page()).glyphs;
    expect(x.exactInk).toBe(false);
    expect(x.box.x0).toBeCloseTo(x.x0, 5);
    expect(x.box.x1).toBeCloseTo(x.x1, 5);
    expect(x.box.y0).toBeLessThan(x.baseline - 10);
    expect(x.box.y1).toBeGreaterThan(x.baseline + 2);
  });
});

describe('pathBounds', () => {
  it('ignores the side-bearing moveTo and counts curve extrema, not control points', () => {
    // moveTo(0.1,0) lineTo(0.1,0) (Type 1 start), then a bump from (0,0.5) to (1,0.5) through y 0.875.
    const path = [0, 0.1, 0, 1, 0.1, 0, 0, 0, 0.5, 2, 0, 1, 1, 1, 1, 0.5, 4];
    const b = pathBounds(path)!;
    expect(b.x0).toBeCloseTo(0);
    expect(b.x1).toBeCloseTo(1);
    expect(b.y0).toBeCloseTo(0.5);
    expect(b.y1).toBeCloseTo(0.875);
  });
});
