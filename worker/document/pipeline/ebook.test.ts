import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import { azw3File, kfxContainerFile, mobiFile, wpdFile } from '../../../test/support/ebook-fixtures.js';
import { detectFileType } from './detect.js';
import { KFX_UNSUPPORTED_MESSAGE, kfxUnsupported, MAX_EBOOK_TEXT_BYTES, mobiHeaderFacts, mobiToPdf } from './ebook.js';
import { convertDocument } from './index.js';
import { findOnPath, officeToPdf, type ConvertedPdf } from './office.js';

const run = promisify(execFile);
const tools = Boolean((await findOnPath('soffice')) && (await findOnPath('pandoc')));
const CHAPTER_TWO = 'The second chapter is long enough to need a text record of its own in the book.';
/** A 240×160 PNG of a red disc on white, the book's one picture. */
const picture = await sharp(
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"><rect width="100%" height="100%" fill="white"/><circle cx="120" cy="80" r="60" fill="red"/></svg>',
  ),
)
  .png()
  .toBuffer();
const book = (encryption = 0) =>
  mobiFile({
    title: 'A Tiny Kindle Book',
    chapters: [
      '<h1>Chapter One</h1><p>Hello from a MOBI fixture built record by record.</p><p><img recindex="00001" /></p>',
      `<h1>Chapter Two</h1><p>${CHAPTER_TWO}</p><p>${'Filler sentence. '.repeat(300)}</p>`,
    ],
    encryption,
    images: [picture],
  });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-ebook-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const write = async (name: string, data: Buffer) => {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
};
/**
 * The MMD Folio makes of a converted PDF, and the sizes ('width×height') of the pictures in it;
 * the temporary directory is gone afterwards.
 */
const readConverted = async (converted: ConvertedPdf) => {
  try {
    // pdfimages -list columns: page, num, type (image, or smask for an alpha channel), width, height…
    const rows = (await run('pdfimages', ['-list', converted.pdfPath])).stdout
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/));
    const pictures = rows.filter((cols) => cols[2] === 'image').map((cols) => `${cols[3]}×${cols[4]}`);
    return { pictures, mmd: (await convertDocument(converted.pdfPath, {})).mmd };
  } finally {
    await converted.cleanup();
  }
};
const tempDirs = async (prefix: string) => (await readdir(tmpdir())).filter((n) => n.startsWith(prefix));

describe('MOBI / AZW / AZW3', () => {
  it('detects a PalmDB BOOKMOBI as mobi and reads its header facts', async () => {
    const buf = book();
    expect(await detectFileType(await write('book.azw', buf))).toBe('mobi');
    expect(mobiHeaderFacts(buf)).toMatchObject({ encryption: 0, kf8: false });
    const rec0 = buf.readUInt32BE(78);
    const kf8 = Buffer.from(buf);
    kf8.writeUInt32BE(8, rec0 + 36); // MOBI header version 8: a KF8-only (AZW3) book
    expect(mobiHeaderFacts(kf8).kf8).toBe(true);
  });

  it.skipIf(!tools)(
    'reads every chapter and its picture into the PDF and MMD, and cleans up (skipped: soffice or pandoc missing)',
    async () => {
      const before = await tempDirs('folio-ebook-');
      const { pictures, mmd } = await readConverted(await mobiToPdf(await write('book.mobi', book())));
      expect(pictures).toEqual(['240×160']);
      expect(mmd).toMatch(/^#+ Chapter One$/m);
      expect(mmd).toContain('Hello from a MOBI fixture built record by record.');
      expect(mmd).toMatch(/^#+ Chapter Two$/m);
      expect(mmd).toContain(CHAPTER_TWO);
      expect(await tempDirs('folio-ebook-')).toEqual(before);
    },
    120_000,
  );

  it.skipIf(!tools)(
    'reads an AZW3 (KF8) book, skeleton by skeleton, with its picture (skipped: soffice or pandoc missing)',
    async () => {
      const buf = azw3File({
        title: 'A Tiny KF8 Book',
        chapters: [
          '<h1>Part One</h1><p>The KF8 text flow is cut into skeletons.</p><p><img src="kindle:embed:0001?mime=image/png"/></p>',
          `<h1>Part Two</h1><p>${CHAPTER_TWO}</p>`,
        ],
        images: [picture],
      });
      expect(mobiHeaderFacts(buf)).toMatchObject({ encryption: 0, kf8: true });
      const { pictures, mmd } = await readConverted(await mobiToPdf(await write('book.azw3', buf)));
      expect(pictures).toEqual(['240×160']);
      expect(mmd).toMatch(/^#+ Part One$/m);
      expect(mmd).toContain('The KF8 text flow is cut into skeletons.');
      expect(mmd).toMatch(/^#+ Part Two$/m);
      expect(mmd).toContain(CHAPTER_TWO);
    },
    120_000,
  );

  it('refuses a DRM-protected book with unsupported_format before parsing it', async () => {
    const err = await mobiToPdf(await write('drm.mobi', book(2))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ id: 'unsupported_format', retryable: false });
    expect((err as Error).message).toMatch(/DRM/);
  });

  it('refuses a book declaring more text than MAX_EBOOK_TEXT_BYTES with content_too_large, before decoding it', async () => {
    const big = book();
    big.writeUInt32BE(MAX_EBOOK_TEXT_BYTES + 1, big.readUInt32BE(78) + 4); // PalmDOC text length
    await expect(mobiToPdf(await write('big.mobi', big))).rejects.toMatchObject({ id: 'content_too_large', extras: { max_limit: MAX_EBOOK_TEXT_BYTES } });
  });

  it('refuses a damaged book (record 0 cut off) with unsupported_format', async () => {
    const err = await mobiToPdf(await write('cut.mobi', book().subarray(0, 120))).catch((e: unknown) => e);
    expect(err).toMatchObject({ id: 'unsupported_format' });
  });
});

describe('KFX', () => {
  it('detects a KFX container and a .kfx-zip, and names the refusal', async () => {
    expect(await detectFileType(await write('book.kfx', kfxContainerFile()))).toBe('kfx');
    expect(kfxUnsupported()).toMatchObject({ id: 'unsupported_format', message: KFX_UNSUPPORTED_MESSAGE, retryable: false });
  });
});

describe('WordPerfect', () => {
  it.skipIf(!tools)(
    'detects a WordPerfect 5 file and reads it through LibreOffice (skipped: soffice missing)',
    async () => {
      const path = await write('letter.wpd', wpdFile(['Dear reader, this letter was typed in WordPerfect.', 'A second paragraph follows the first.']));
      expect(await detectFileType(path)).toBe('wpd');
      const { mmd } = await readConverted(await officeToPdf(path, 'wpd'));
      expect(mmd).toContain('Dear reader, this letter was typed in WordPerfect.');
      expect(mmd).toContain('A second paragraph follows the first.');
    },
    120_000,
  );
});
