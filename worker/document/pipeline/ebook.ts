import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKf8File, initMobiFile } from '@lingo-reader/mobi-parser';
import { ApiError } from '../../../core/errors.js';
import { pandocToPdf } from './epub.js';
import { MAX_OFFICE_EXPANDED_BYTES, type ConvertedPdf, type OfficeOptions } from './office.js';

/**
 * Kindle books → PDF.
 *
 * MOBI, AZW (Mobipocket with Amazon's name) and AZW3 (KF8) are all PalmDB files 'BOOKMOBI';
 * @lingo-reader/mobi-parser decodes their text records into chapters of HTML (and saves their
 * images next to it), which go as one HTML book through pandoc → DOCX → LibreOffice → PDF, the
 * EPUB path. DRM-protected books (a non-zero PalmDOC encryption field) are refused with
 * unsupported_format: the spec has no DRM id, and pdf_encrypted is about PDF passwords.
 *
 * KFX is refused with unsupported_format: Amazon's KFX container (ION data, usually DRM-wrapped)
 * is only readable with Calibre and a third-party plugin, neither of which the appliance ships.
 */

export const KFX_UNSUPPORTED_MESSAGE =
  'KFX (Amazon Kindle) books cannot be read: the format needs Calibre with a third-party plugin. Export the book as AZW3, MOBI, EPUB or PDF and upload that';

/** The refusal for a KFX input; see the module comment. */
export function kfxUnsupported(): ApiError {
  return new ApiError('unsupported_format', KFX_UNSUPPORTED_MESSAGE, {}, false);
}

interface MobiHeaderFacts {
  /** PalmDOC encryption: 0 none, 1 old Mobipocket, 2 Mobipocket DRM. */
  encryption: number;
  /** Declared length of the uncompressed text, before anything is decoded. */
  textLength: number;
  /** Number of text records; each decodes to at most TEXT_RECORD_BYTES in a well-formed book. */
  textRecords: number;
  /** KF8 (AZW3), alone (version 8) or after a MOBI 6 part (EXTH 121, the KF8 boundary). */
  kf8: boolean;
}

/**
 * Largest declared text of a MOBI/AZW book. The MOBI 6 parser decodes the whole text at once into
 * a JS array with one element per byte (8 bytes of heap each), so this bounds it to about 130 MB;
 * the complete works of Shakespeare are 5.5 MB of text.
 */
export const MAX_EBOOK_TEXT_BYTES = 16 * 1024 * 1024;

/** PalmDOC's fixed text record size (the MOBI format never changed it). */
const TEXT_RECORD_BYTES = 4096;
const NO_RECORD = 0xffffffff;
const EXTH_PRESENT = 0x40;
const EXTH_KF8_BOUNDARY = 121;

/** Reads record 0 of a 'BOOKMOBI' PalmDB: the facts needed before handing it to the parser. */
export function mobiHeaderFacts(book: Buffer): MobiHeaderFacts {
  const bad = () => new ApiError('unsupported_format', 'This MOBI/AZW file is damaged: its record 0 is missing or has no MOBI header', {}, false);
  if (book.length < 86) throw bad();
  const rec0 = book.readUInt32BE(78);
  const rec1 = book.readUInt16BE(76) > 1 ? book.readUInt32BE(86) : book.length;
  const r = book.subarray(rec0, Math.min(rec1, book.length));
  if (r.length < 132 || r.toString('latin1', 16, 20) !== 'MOBI') throw bad();
  const facts = { encryption: r.readUInt16BE(12), textLength: r.readUInt32BE(4), textRecords: r.readUInt16BE(8), kf8: r.readUInt32BE(36) >= 8 };
  if (!facts.kf8 && r.readUInt32BE(128) & EXTH_PRESENT) facts.kf8 = hasKf8Boundary(r.subarray(16 + r.readUInt32BE(20)));
  return facts;
}

function hasKf8Boundary(exth: Buffer): boolean {
  if (exth.length < 12 || exth.toString('latin1', 0, 4) !== 'EXTH') return false;
  let at = 12;
  for (let i = exth.readUInt32BE(8); i > 0 && at + 8 <= exth.length; i--) {
    const type = exth.readUInt32BE(at);
    const len = exth.readUInt32BE(at + 4);
    if (len < 8) return false;
    if (type === EXTH_KF8_BOUNDARY && len >= 12 && at + 12 <= exth.length) return exth.readUInt32BE(at + 8) !== NO_RECORD;
    at += len;
  }
  return false;
}

/** MOBI, AZW or AZW3 at `path` → PDF in a fresh temporary directory. */
export async function mobiToPdf(path: string, opts: OfficeOptions = {}): Promise<ConvertedPdf> {
  const book = await readBounded(path);
  const facts = mobiHeaderFacts(book);
  if (facts.encryption !== 0) {
    throw new ApiError('unsupported_format', 'This Kindle book is DRM-protected and cannot be read; upload a DRM-free MOBI, AZW3, EPUB or PDF', {}, false);
  }
  // The parser decodes every text record whatever the declared length says: bound both. A forged
  // record that decodes to more is caught after decoding, by the bound in bookHtml.
  if (Math.max(facts.textLength, facts.textRecords * TEXT_RECORD_BYTES) > MAX_EBOOK_TEXT_BYTES) throw tooLarge(MAX_EBOOK_TEXT_BYTES);
  const dir = await mkdtemp(join(tmpdir(), 'folio-ebook-'));
  try {
    const html = join(dir, 'book.html');
    await writeFile(html, await bookHtml(book, facts.kf8, join(dir, 'resources')));
    const pdf = await pandocToPdf(html, 'html', facts.kf8 ? 'AZW3' : 'MOBI', opts);
    return {
      pdfPath: pdf.pdfPath,
      cleanup: async () => {
        await pdf.cleanup();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The whole book as one HTML document; images are files under `resources`, linked by path. */
async function bookHtml(book: Buffer, kf8: boolean, resources: string): Promise<string> {
  let reader;
  try {
    // The parser takes a Uint8Array of its own (it slices the underlying ArrayBuffer by offset).
    const bytes = new Uint8Array(book);
    reader = kf8 ? await initKf8File(bytes, resources) : await initMobiFile(bytes, resources);
  } catch (err) {
    throw new ApiError('unsupported_format', `This ${kf8 ? 'AZW3' : 'MOBI'} file could not be read: ${(err as Error).message}`, {}, false);
  }
  // No reader.destroy(): it unlinks the saved images, which pandoc has yet to read; they go with
  // the temporary directory.
  const parts: string[] = [];
  let total = 0;
  for (const { id } of reader.getSpine()) {
    const chapter = reader.loadChapter(id)?.html ?? '';
    total += chapter.length;
    if (total > MAX_EBOOK_TEXT_BYTES) throw tooLarge(MAX_EBOOK_TEXT_BYTES); // the header understated it
    parts.push(`<section>${chapter}</section>`);
  }
  const title = escapeHtml(reader.getMetadata().title);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>\n${parts.join('\n')}\n</body></html>`;
}

/** Reads the book, refusing files the office path would also refuse as too large. */
async function readBounded(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size > MAX_OFFICE_EXPANDED_BYTES) throw tooLarge(MAX_OFFICE_EXPANDED_BYTES);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError('content_too_large', `This ebook is larger than ${limit} bytes`, { max_limit: limit }, false);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
