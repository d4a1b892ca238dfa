import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headingAndParagraphsPdf } from '../../test/support/pdf-fixtures.js';
import { OVERLAY_MAX_SOURCE_BYTES, overlayPdf } from './convert-overlay.js';
import { writeConversions } from './conversions.js';
import type { LineEntry, PageLines } from '../../page/render/lines-json.js';

const run = promisify(execFile);
type Word = { text: string; x: number; y: number; xMax: number; yMax: number };

/** Every word pdftotext finds, with its box in points from the top left. */
async function words(dir: string, pdf: Buffer): Promise<Word[]> {
  await writeFile(join(dir, 'w.pdf'), pdf);
  const { stdout } = await run('pdftotext', ['-bbox', join(dir, 'w.pdf'), '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: m[5]!,
    x: Number(m[1]),
    y: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

describe('overlayPdf (mmd.overlay.pdf)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-overlay-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('lays the recognised lines over a page without text, each word where it is printed, invisibly', async () => {
    const printed = await headingAndParagraphsPdf();
    const truth = await words(dir, printed);
    // The page as a scan: its picture only, no text.
    await writeFile(join(dir, 'p.pdf'), printed);
    await run('pdftoppm', ['-r', '72', '-png', '-singlefile', join(dir, 'p.pdf'), join(dir, 'page')]);
    const scan = await PDFDocument.create();
    const image = await scan.embedPng(await readFile(join(dir, 'page.png')));
    scan.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    const scanned = Buffer.from(await scan.save());
    expect(await words(dir, scanned)).toEqual([]);
    // lines.json in pixels at twice the page's size in points: one line per printed row.
    const rows = new Map<number, Word[]>();
    for (const w of truth) rows.set(Math.round(w.y), [...(rows.get(Math.round(w.y)) ?? []), w]);
    const lines: LineEntry[] = [...rows.values()].map((ws, i) => {
      const [x0, y0, x1, y1] = [
        Math.min(...ws.map((w) => w.x)),
        Math.min(...ws.map((w) => w.y)),
        Math.max(...ws.map((w) => w.xMax)),
        Math.max(...ws.map((w) => w.yMax)),
      ];
      return {
        id: `l${i}`,
        type: 'text',
        text: ws.map((w) => w.text).join(' '),
        region: { top_left_x: x0 * 2, top_left_y: y0 * 2, width: (x1 - x0) * 2, height: (y1 - y0) * 2 },
        font_size: 11,
        conversion_output: true,
      };
    });
    const pages: PageLines<LineEntry>[] = [{ page: 1, page_width: 1224, page_height: 1584, lines }];

    const overlaid = await overlayPdf(scanned, pages);
    const found = await words(dir, overlaid);
    expect(found.map((w) => w.text)).toEqual(truth.map((w) => w.text));
    for (const [i, w] of found.entries()) {
      expect(Math.abs(w.x - truth[i]!.x), w.text).toBeLessThan(6);
      expect(Math.abs(w.y - truth[i]!.y), w.text).toBeLessThan(4);
    }
    // Invisible: the page renders as the scan did.
    await writeFile(join(dir, 's.pdf'), scanned);
    await writeFile(join(dir, 'o.pdf'), overlaid);
    await run('pdftoppm', ['-r', '72', '-png', '-singlefile', join(dir, 's.pdf'), join(dir, 'scan')]);
    await run('pdftoppm', ['-r', '72', '-png', '-singlefile', join(dir, 'o.pdf'), join(dir, 'over')]);
    const pixels = async (f: string) => sharp(join(dir, f)).removeAlpha().raw().toBuffer();
    const [before, after] = [await pixels('scan.png'), await pixels('over.png')];
    expect(after.length).toBe(before.length);
    expect(after.filter((v, i) => Math.abs(v - before[i]!) > 8).length).toBe(0);
  });

  it('settles the overlay of a source too large to parse in memory as content_too_large, unread, and makes the other formats', async () => {
    const path = join(dir, 'large.pdf');
    await writeFile(path, '%PDF-1.4\n');
    await truncate(path, OVERLAY_MAX_SOURCE_BYTES + 1); // sparse: nothing is on disk, reading it would cost the size
    const put: string[] = [];
    const rss = process.memoryUsage().rss;
    const status = await writeConversions('# Title\n', { 'mmd.overlay.pdf': true, md: true }, async (ext) => void put.push(ext), undefined, path, []);
    expect(status['mmd.overlay.pdf']).toMatchObject({ status: 'error', error_id: 'content_too_large' });
    expect(status.md).toEqual({ status: 'completed' });
    expect(put).toEqual(['md']);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 2 ** 20);
  });

  it('refuses a source that is not a PDF', async () => {
    await expect(overlayPdf(Buffer.from('PK\u0003\u0004'), [])).rejects.toMatchObject({ errorId: 'unsupported_format' });
  });
});
