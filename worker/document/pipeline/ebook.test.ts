import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import { kfxContainerFile, mobiFile, wpdFile } from '../../../test/support/ebook-fixtures.js';
import { detectFileType } from './detect.js';
import { KFX_UNSUPPORTED_MESSAGE, kfxUnsupported, mobiHeaderFacts, mobiToPdf } from './ebook.js';
import { convertDocument } from './index.js';
import { findOnPath, officeToPdf, type ConvertedPdf } from './office.js';

const tools = Boolean((await findOnPath('soffice')) && (await findOnPath('pandoc')));
const CHAPTER_TWO = 'The second chapter is long enough to need a text record of its own in the book.';
const book = (encryption = 0) =>
  mobiFile({
    title: 'A Tiny Kindle Book',
    chapters: ['<h1>Chapter One</h1><p>Hello from a MOBI fixture built record by record.</p>', `<h1>Chapter Two</h1><p>${CHAPTER_TWO}</p><p>${'Filler sentence. '.repeat(300)}</p>`],
    encryption,
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
/** The MMD Folio makes of a converted PDF; the temporary directory is gone afterwards. */
const mmdOf = async (converted: ConvertedPdf) => {
  try {
    return (await convertDocument(converted.pdfPath, {})).mmd;
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

  it.skipIf(!tools)('reads every chapter into MMD through pandoc and LibreOffice, and cleans up (skipped: soffice or pandoc missing)', async () => {
    const before = await tempDirs('folio-ebook-');
    const mmd = await mmdOf(await mobiToPdf(await write('book.mobi', book())));
    expect(mmd).toMatch(/^#+ Chapter One$/m);
    expect(mmd).toContain('Hello from a MOBI fixture built record by record.');
    expect(mmd).toMatch(/^#+ Chapter Two$/m);
    expect(mmd).toContain(CHAPTER_TWO);
    expect(await tempDirs('folio-ebook-')).toEqual(before);
  }, 120_000);

  it('refuses a DRM-protected book with unsupported_format before parsing it', async () => {
    const err = await mobiToPdf(await write('drm.mobi', book(2))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ id: 'unsupported_format', retryable: false });
    expect((err as Error).message).toMatch(/DRM/);
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
  it.skipIf(!tools)('detects a WordPerfect 5 file and reads it through LibreOffice (skipped: soffice missing)', async () => {
    const path = await write('letter.wpd', wpdFile(['Dear reader, this letter was typed in WordPerfect.', 'A second paragraph follows the first.']));
    expect(await detectFileType(path)).toBe('wpd');
    const mmd = await mmdOf(await officeToPdf(path, 'wpd'));
    expect(mmd).toContain('Dear reader, this letter was typed in WordPerfect.');
    expect(mmd).toContain('A second paragraph follows the first.');
  }, 120_000);
});
