import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type FileHandle, open } from 'node:fs/promises';
import { getDocument, OPS, PDFDataRangeTransport, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ApiError } from '../../../core/errors.js';
import { classifyFont, isMathFamily, isTextItalicFont, readPdfMath, type PdfPageMath } from '../../engine/math/pdf/index.js';
import type { LinkArea } from './inline.js';
import { isMathFontName } from '../../engine/math/unicode-latex.js';
import { readPageGraphics, type PageGraphics } from './page-graphics.js';
import { itemsToGlyphs, type FontInfo, type Glyph, type RawTextItem } from './text-layer.js';

/** pdf.js in Node: loading with the options that keep it off the DOM, and the page facts the pipeline reads. */

const require = createRequire(import.meta.url);
/** pdf.js wants a URL-ish string ending in '/'; a plain directory path works with its Node fetcher. */
const STANDARD_FONTS = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
]);

/**
 * The unit pdf.js reads the file in (never the whole file); a run of missing units is one read.
 * pdf.js's own default. Small because every open fetches each page object of a flat page tree (it
 * checks the last page) and keeps each unit it read until the document closes: a scanned book's
 * page objects lie between its images, one unit apart each. With 1 MiB units a 2 GB document of
 * 121 pages held 121 MiB after every open, past REOPEN_AFTER_BYTES (pdf-thread.ts), so it was
 * reopened and walked again after every page; with 64 KiB it holds 7.6 MiB.
 */
const RANGE_CHUNK_BYTES = 1 << 16;
/** The largest file pdf.js can address: it keeps one byte array of the file's length (filled only where read). */
export const MAX_PDF_BYTES = 2 ** 32 - 1;

/** Serves pdf.js the ranges of a file it asks for, from an open file handle; counts what it served. */
class FileRanges extends PDFDataRangeTransport {
  served = 0;
  constructor(
    private readonly file: FileHandle,
    length: number,
  ) {
    super(length, null);
  }

  override requestDataRange(begin: number, end: number): void {
    const chunk = new Uint8Array(end - begin);
    this.file.read(chunk, 0, chunk.length, begin).then(
      ({ bytesRead }) => {
        this.served += bytesRead;
        this.onDataRange(begin, chunk.subarray(0, bytesRead));
      },
      () => this.onDataRange(begin, new Uint8Array(0)),
    );
  }
}

export interface OpenedPdf {
  doc: PDFDocumentProxy;
  /** Bytes of the file read so far: pdf.js keeps every range it has read until the document is destroyed. */
  bytesRead(): number;
  /** Destroys the document and closes the file. */
  close(): Promise<void>;
}

/**
 * Opens a PDF file for reading ranges of it on demand: memory follows the pages read, not the
 * file's size. Unreadable input is a whole-document failure that retrying cannot fix.
 * @throws ApiError pdf_content_type (empty, truncated, not a PDF), pdf_encrypted (needs a password) or content_too_large (over MAX_PDF_BYTES)
 */
export async function openPdfFile(path: string): Promise<OpenedPdf> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size === 0) throw new ApiError('pdf_content_type', 'The PDF file is empty (zero bytes)', {}, false);
    if (size > MAX_PDF_BYTES)
      throw new ApiError('content_too_large', `The PDF is larger than ${MAX_PDF_BYTES} bytes, the most Folio's PDF reader can address`, {}, false);
    const ranges = new FileRanges(file, size);
    const task = getDocument({
      range: ranges,
      length: size,
      rangeChunkSize: RANGE_CHUNK_BYTES,
      disableAutoFetch: true,
      disableStream: true,
      disableFontFace: true,
      useSystemFonts: false,
      isEvalSupported: false,
      standardFontDataUrl: STANDARD_FONTS,
      verbosity: 0,
    });
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (err) {
      await task.destroy().catch(() => undefined);
      throw pdfLoadError(err);
    }
    const destroy = doc.destroy.bind(doc);
    return {
      doc,
      bytesRead: () => ranges.served,
      close: async () => {
        await destroy().catch(() => undefined);
        await file.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await file.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Opens a PDF file (ranges read on demand); the file stays open until the document is destroyed.
 * @throws ApiError pdf_content_type or pdf_encrypted, as openPdfFile
 */
export async function openPdf(path: string): Promise<PDFDocumentProxy> {
  const opened = await openPdfFile(path);
  opened.doc.destroy = opened.close;
  return opened.doc;
}

/** Maps a pdf.js loading failure to the closed error set. */
export function pdfLoadError(err: unknown): ApiError {
  const name = (err as { name?: string })?.name;
  const detail = (err as { message?: string })?.message ?? String(err);
  if (name === 'PasswordException') return new ApiError('pdf_encrypted', 'The PDF is encrypted and needs a password', {}, false);
  return new ApiError('pdf_content_type', `The file is not a readable PDF (corrupt or truncated): ${detail}`, {}, false);
}

export interface PageContent {
  width: number;
  height: number;
  glyphs: Glyph[];
  links: LinkArea[];
  hasImages: boolean;
  /** Every glyph with its font and ink box, and the vector rules: what the maths parser reads. */
  math: PdfPageMath;
  /** Where images and vector paths are painted: what figures are found from. */
  graphics: PageGraphics;
}

/** Reads one page: glyphs from the text layer, the maths front end's glyphs and rules, link annotations, and what it paints. */
export async function readPage(page: PDFPageProxy, wantLinks: boolean): Promise<PageContent> {
  const viewport = page.getViewport({ scale: 1 });
  const text = await page.getTextContent();
  // The operator list both tells whether the page paints images and loads fonts into commonObjs,
  // which is where the real font names (bold, CMMI…) are; the text layer only has ids.
  const ops = await page.getOperatorList();
  const hasImages = ops.fnArray.some((fn) => IMAGE_OPS.has(fn));
  const fonts = new Map<string, FontInfo>();
  const font = (id: string): FontInfo => {
    let info = fonts.get(id);
    if (!info) {
      const obj = page.commonObjs.has(id) ? (page.commonObjs.get(id) as { name?: string; bold?: boolean; italic?: boolean }) : undefined;
      const name = obj?.name ?? text.styles[id]?.fontFamily ?? '';
      const bold = Boolean(obj?.bold) || /bold|black|heavy|semibold|demi/i.test(name);
      // A maths font by name, or one of the TeX maths families the glyph reader knows (lmodern's Type 1
      // LMMathItalic10, newtx's, MathDesign's): its glyphs are maths wherever they stand.
      info = { name, bold, math: isMathFontName(name) || isMathFamily(classifyFont(name)), italic: isTextItalicFont(name, Boolean(obj?.italic)) };
      fonts.set(id, info);
    }
    return info;
  };
  const items = text.items.filter((i): i is RawTextItem & (typeof text.items)[number] => 'str' in i);
  const glyphs = itemsToGlyphs(items, viewport.transform, font);
  const links = wantLinks ? await readLinks(page, viewport.transform) : [];
  const math = await readPdfMath(page, ops);
  const graphics = readPageGraphics(ops, viewport.transform);
  return { width: viewport.width, height: viewport.height, glyphs, links, hasImages, math, graphics };
}

const LINK_SCHEME = /^(https?:|mailto:)/i;

async function readLinks(page: PDFPageProxy, vt: number[]): Promise<LinkArea[]> {
  const annots = (await page.getAnnotations({ intent: 'display' })) as { subtype?: string; url?: string; unsafeUrl?: string; rect?: number[] }[];
  const out: LinkArea[] = [];
  for (const a of annots) {
    const url = a.url ?? a.unsafeUrl;
    if (a.subtype !== 'Link' || !url || !LINK_SCHEME.test(url) || !a.rect) continue;
    const [x1, y1] = apply(vt, a.rect[0], a.rect[1]);
    const [x2, y2] = apply(vt, a.rect[2], a.rect[3]);
    out.push({ x0: Math.min(x1, x2), x1: Math.max(x1, x2), top: Math.min(y1, y2), bottom: Math.max(y1, y2), url });
  }
  return out;
}

function apply(m: number[], x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
