import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannedPdf } from '../../../test/support/scanned-fixtures.js';
import {
  DRAWING_CAPTION,
  DRAWING_SIZE_PT,
  FIGURE_COUNT,
  RASTER_CAPTION,
  RASTER_SIZE_PT,
  type FigurePaper,
  figurePaperPdf,
} from '../../../test/support/figure-fixtures.js';
import { FIGURE_DPI, cdnFigureUrl, linkedFigures } from '../../../page/figure-links.js';
import { isPictureLine } from '../../../page/processors/figure-regions.js';
import { convertDocument, type DocumentResult, type FigureSink } from './index.js';
import { openPdf, readPage } from './pdf.js';
import { glyphsToLines } from './text-layer.js';

const PX_PER_PT = FIGURE_DPI / 72;
const PREFIX = '2025_06_01_0123456789abcdef0123';

/** A sink keeping crops in memory and linking them as the appliance's CDN would. */
function memorySink(): FigureSink & { crops: Map<string, Buffer> } {
  const crops = new Map<string, Buffer>();
  return { prefix: PREFIX, crops, save: async (name, jpeg) => void crops.set(name, jpeg), link: (name, r) => cdnFigureUrl('http://folio.test/cdn', name, r) };
}

const sizeOf = async (jpeg: Buffer) => {
  const m = await sharp(jpeg).metadata();
  return { width: m.width!, height: m.height! };
};

describe('figures of a pdflatex paper: a raster chart and a line drawing', () => {
  let paper: FigurePaper;
  let born: DocumentResult;
  let bornCrops: Map<string, Buffer>;
  let scanned: DocumentResult;
  let scannedCrops: Map<string, Buffer>;

  beforeAll(async () => {
    paper = await figurePaperPdf();
    const sink = memorySink();
    born = await convertDocument(paper.path, {}, { figures: sink });
    bornCrops = sink.crops;
    // The scanned copy is read by a perfect OCR: the born-digital page's own words (the picture
    // fonts' strokes are drawing, which no OCR reads as words).
    const scanPath = join(paper.dir, 'scan.pdf');
    await writeFile(scanPath, await scannedPdf(await readFile(paper.path)));
    const original = await openPdf(paper.path);
    const ocr = () => async (n: number) => {
      // The text layer's lines stand in for the OCR's (scale 1: the "pixels" are points).
      const lines = glyphsToLines((await readPage(await original.getPage(n), false)).glyphs).filter((l) => !isPictureLine(l));
      const read = {
        width: 612,
        height: 792,
        lines: lines.map((l) => ({
          text: l.text,
          confidence: 0.99,
          box: { x: l.x0, y: l.top, width: l.x1 - l.x0, height: l.bottom - l.top },
          kind: 'text' as const,
        })),
      };
      return { read, scale: 1 };
    };
    const scanSink = memorySink();
    scanned = await convertDocument(scanPath, {}, { figures: scanSink, ocr });
    scannedCrops = scanSink.crops;
    await original.destroy();
  }, 60_000);
  afterAll(() => paper?.cleanup());

  it('links each figure once, before its caption, and keeps captions as text and the table as a table', () => {
    for (const r of [born, scanned]) {
      const names = linkedFigures(r.mmd);
      expect(names).toEqual([`${PREFIX}-1-1`, `${PREFIX}-2-1`]);
      expect(r.figures).toEqual(names);
      for (const name of names) expect(r.mmd.split(`/cropped/${name}.jpg`)).toHaveLength(2);
      expect(r.mmd).toMatch(
        new RegExp(
          `!\\[\\]\\(http://folio\\.test/cdn/cropped/${PREFIX}-1-1\\.jpg\\?height=\\d+&width=\\d+&top_left_y=\\d+&top_left_x=\\d+\\)\\n\\n${RASTER_CAPTION}`,
        ),
      );
      expect(r.mmd).toContain(`.jpg?`);
      expect(r.mmd).toContain(`\n\n${DRAWING_CAPTION}\n\n`);
      // The ruled table is not a figure: a table on the born-digital page, its words on the scan.
      if (r === born)
        expect(r.mmd).toContain('\\begin{tabular}{|l|r|}\n\\hline Day & Mean \\\\\n\\hline One & 12 \\\\\n\\hline Two & 26 \\\\\n\\hline\n\\end{tabular}');
      else expect(r.mmd).toMatch(/Day[\s\S]*Mean[\s\S]*One[\s\S]*12[\s\S]*Two[\s\S]*26/);
      expect(r.mmd).toContain('underlined words'); // nor is the underline, nor the fraction bar
    }
  });

  it('takes the picture-mode strokes into the drawing instead of writing them as text', () => {
    expect(born.mmd).not.toMatch(/PP/);
  });

  it('crops each figure at its size on the page at 150 dpi', async () => {
    const expectNear = (got: { width: number; height: number }, pt: { width: number; height: number }, slack: number) => {
      expect(Math.abs(got.width - pt.width * PX_PER_PT)).toBeLessThan(slack * pt.width * PX_PER_PT);
      expect(Math.abs(got.height - pt.height * PX_PER_PT)).toBeLessThan(slack * pt.height * PX_PER_PT);
    };
    expect(bornCrops.size).toBe(FIGURE_COUNT);
    expectNear(await sizeOf(bornCrops.get(`${PREFIX}-1-1`)!), RASTER_SIZE_PT, 0.05);
    expectNear(await sizeOf(bornCrops.get(`${PREFIX}-2-1`)!), DRAWING_SIZE_PT, 0.1);
    // A scan has no picture box: the crop is the ink, a little inside the picture's white margin.
    expect(scannedCrops.size).toBe(FIGURE_COUNT);
    expectNear(await sizeOf(scannedCrops.get(`${PREFIX}-1-1`)!), RASTER_SIZE_PT, 0.12);
    expectNear(await sizeOf(scannedCrops.get(`${PREFIX}-2-1`)!), DRAWING_SIZE_PT, 0.12);
  });

  it('lists figures in lines.json as image lines with their region, at their place in lines.mmd.json', () => {
    const images = born.linesJson.pages.flatMap((p) => p.lines.filter((l) => l.type === 'image'));
    expect(images).toHaveLength(FIGURE_COUNT);
    expect(images[0]!.region.width).toBeCloseTo(RASTER_SIZE_PT.width, -1);
    expect(images[0]!.region.height).toBeCloseTo(RASTER_SIZE_PT.height, -1);
    const mmdImages = born.linesMmdJson.pages.flatMap((p) => p.lines.filter((l) => l.type === 'image'));
    for (const l of mmdImages) expect(born.mmd.slice(l.mmd_start, l.mmd_end)).toBe(l.text);
    expect(mmdImages.map((l) => linkedFigures(l.text)[0])).toEqual(born.figures);
  });

  it('looks for no figures without a sink', async () => {
    const r = await convertDocument(paper.path);
    expect(r.figures).toEqual([]);
    expect(r.mmd).not.toContain('![](');
  });
});
