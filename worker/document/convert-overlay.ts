import {
  PDFDocument,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  StandardFonts,
  TextRenderingMode,
  popGraphicsState,
  pushGraphicsState,
  setTextRenderingMode,
} from 'pdf-lib';
import { readFile, stat } from 'node:fs/promises';
import type { LineEntry, PageLines } from '../../page/render/lines-json.js';
import { FormatError } from './convert-tool.js';

/** Helvetica's ascent and descent in units of its size: a line's box spans ascent + descent. */
const ASCENT = 0.718;
const DESCENT = 0.207;

/** Helvetica is WinAnsi: characters outside it are searched as '?' rather than dropped, so offsets hold. */
const winAnsi = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/**
 * The largest source PDF an overlay is made over. pdf-lib parses the whole file in memory (about
 * three times its size at its peak), which a document worker cannot spend on a large scan: past
 * this the format alone settles `content_too_large` and the document's other outputs are made.
 */
export const OVERLAY_MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/** Reads the source PDF of an overlay, refusing one over OVERLAY_MAX_SOURCE_BYTES before reading it. */
export async function readOverlaySource(path: string): Promise<Buffer> {
  const { size } = await stat(path);
  if (size > OVERLAY_MAX_SOURCE_BYTES)
    throw new FormatError('content_too_large', `mmd.overlay.pdf is made over source PDFs of at most ${OVERLAY_MAX_SOURCE_BYTES} bytes; this one has ${size}`);
  return readFile(path);
}

/**
 * mmd.overlay.pdf: the source PDF with each recognised line of lines.json (its text and region,
 * in the units of page_width × page_height) laid over it as invisible text (rendering mode 3), so
 * the page looks as it did and its words can be searched and selected where they are printed.
 * Each line is sized so Helvetica's ascent-to-descent spans the box's height and stretched
 * horizontally to its width. A source that is not a PDF is
 * unsupported_format.
 */
export async function overlayPdf(source: Buffer, pages: PageLines<LineEntry>[]): Promise<Buffer> {
  if (source.subarray(0, 5).toString('latin1') !== '%PDF-') throw new FormatError('unsupported_format', 'mmd.overlay.pdf needs a PDF source');
  const doc = await PDFDocument.load(source, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdfPages = doc.getPages();
  for (const p of pages) {
    const page = pdfPages[p.page - 1];
    if (!page || !p.page_width || !p.page_height) continue;
    const box = page.getCropBox();
    const sx = box.width / p.page_width;
    const sy = box.height / p.page_height;
    for (const line of p.lines) {
      const text = winAnsi(line.text.replace(/\s+/g, ' ').trim());
      if (!text || line.region.width <= 0 || line.region.height <= 0) continue;
      const height = line.region.height * sy;
      const size = height / (ASCENT + DESCENT);
      const natural = font.widthOfTextAtSize(text, size);
      const stretch = natural > 0 ? (line.region.width * sx * 100) / natural : 100;
      const x = box.x + line.region.top_left_x * sx;
      const baseline = box.y + box.height - (line.region.top_left_y * sy + height) + DESCENT * size;
      page.pushOperators(
        pushGraphicsState(),
        setTextRenderingMode(TextRenderingMode.Invisible),
        PDFOperator.of(PDFOperatorNames.SetTextHorizontalScaling, [PDFNumber.of(stretch)]),
      );
      page.drawText(text, { x, y: baseline, size, font });
      page.pushOperators(popGraphicsState());
    }
  }
  return Buffer.from(await doc.save());
}
