import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { djvuFile } from '../../../test/support/ebook-fixtures.js';
import { detectFileType } from './detect.js';
import { djvuToPdf } from './djvu.js';
import { findOnPath } from './office.js';

const run = promisify(execFile);
const tools = Boolean((await findOnPath('ddjvu')) && (await findOnPath('c44')) && (await findOnPath('tesseract')));
const LINES = ['Scanned pages of an old journal', 'stored as DjVu by the library'];

let dir: string;
let djvu: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-djvu-test-'));
  djvu = join(dir, 'journal.djvu');
  if (tools) await writeFile(djvu, await djvuFile(LINES));
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!tools)('DjVu (skipped: djvulibre-bin or tesseract missing)', () => {
  it('detects the file and renders its page into an image PDF that OCR reads back', async () => {
    expect(await detectFileType(djvu)).toBe('djvu');
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith('folio-djvu-'));
    const converted = await djvuToPdf(djvu);
    try {
      const info = (await run('pdfinfo', [converted.pdfPath])).stdout;
      expect(info).toMatch(/Pages:\s+1\n/);
      expect(info).toMatch(/Page size:\s+612 x 792 pts/); // 1275 × 1650 pixels at 150 dpi: US letter
      expect((await run('pdftotext', [converted.pdfPath, '-'])).stdout.trim()).toBe(''); // images only
      await run('pdftoppm', ['-r', '150', '-png', '-singlefile', converted.pdfPath, join(dir, 'page')]);
      const ocr = (await run('tesseract', [join(dir, 'page.png'), '-'])).stdout;
      for (const line of LINES) expect(ocr).toContain(line);
    } finally {
      await converted.cleanup();
    }
    expect((await readdir(tmpdir())).filter((n) => n.startsWith('folio-djvu-'))).toEqual(before);
  }, 60_000);

  it('answers unsupported_format for a damaged file and when ddjvu is missing', async () => {
    const cut = join(dir, 'cut.djvu');
    const whole = await readFile(djvu);
    await writeFile(cut, whole.subarray(0, 40));
    await expect(djvuToPdf(cut)).rejects.toMatchObject({ id: 'unsupported_format', retryable: false });
    await expect(djvuToPdf(djvu, { ddjvu: join(dir, 'no-such-ddjvu') })).rejects.toMatchObject({
      id: 'unsupported_format',
      message: expect.stringMatching(/djvulibre-bin/),
    });
  });
});
