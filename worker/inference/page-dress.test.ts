import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageLine } from '../../page/model.js';
import { DRESSED_DISPLAY, DRESSED_PROSE, dressedPagePdf } from '../../test/support/dressed-page.js';
import type { LatexPdf } from '../../test/support/latex-pdf.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import { TextRecognizer } from '../engine/text/index.js';
import { MATH_MIN_TURN_MARGIN } from './index.js';
import { addMath, type MathEngines } from './math-page.js';

const run = promisify(execFile);
/** Scanned pages are read at this resolution (the texdoc scan evaluation's, bench/scanned-renders.ts). */
const SCAN_DPI = 200;

/** The page photographed on a dark table: dark all round it, over more than half the picture. */
const onDarkTable = (png: Buffer) => {
  const dark = { r: 40, g: 36, b: 33, alpha: 1 };
  return sharp(png).extend({ top: 500, bottom: 500, left: 700, right: 700, background: dark }).png().toBuffer();
};

/**
 * Pages dressed to their edges (test/support/dressed-page.ts), rasterised as scans and read by the
 * page step as POST /v3/pdf reads a scanned page (page-dress.ts):
 * - a bar down the side held ink in every pixel row, so the whole page was one band of ink, read
 *   line by line as text, and its display came back as prose with inline pieces
 *   (`u" \( + \) c(x)u \( =0 \)`);
 * - a dark slide background binarised as one blob of ink and its light lines as none, so the
 *   display stayed the text model's line;
 * - a page photographed on a dark table is no negative: its lines stand on light paper.
 */
describe.each([
  ['a side bar', 'side bar', undefined],
  ['a dark background', 'dark background', undefined],
  ['a side bar, photographed on a dark table', 'side bar', onDarkTable],
] as const)('a scanned page with %s', (_, dress, photograph) => {
  let pdf: LatexPdf;
  let lines: PageLine[];
  beforeAll(async () => {
    pdf = await dressedPagePdf(dress);
    await run('pdftoppm', ['-r', String(SCAN_DPI), '-gray', '-png', '-singlefile', pdf.path, join(pdf.dir, 'scan')]);
    const scan = await readFile(join(pdf.dir, 'scan.png'));
    const png = photograph ? await photograph(scan) : scan;
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, handwritten: await loadHandwritingClassifier() };
    const engines: MathEngines = {
      math: createMathRecognizer({ imageClassifier: printed }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
    };
    const ocr = await (await TextRecognizer.load()).recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    lines = (await addMath(png, ocr, { math: 'auto' }, engines)).lines;
  }, 120_000);
  afterAll(() => pdf?.cleanup());

  it('reads its numbered display as one maths row, the number taken apart', () => {
    const numbered = lines.filter((l) => l.kind === 'math' && l.math?.tag);
    expect(numbered.map((l) => [l.math?.latex, l.math?.tag])).toEqual([[DRESSED_DISPLAY, '1']]);
    expect(lines.filter((l) => l.kind === 'text' && l.text.includes('c(x)'))).toEqual([]);
  });

  it('keeps its prose as text lines', () => {
    const prose = lines.find((l) => l.text.includes('infinitely many zeros'));
    expect(prose?.kind).toBe('text');
    expect(prose?.text).toContain(DRESSED_PROSE.slice(0, 40));
  });
});
