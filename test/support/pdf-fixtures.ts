import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFFont, PDFName, PDFPage, PDFString, StandardFonts } from 'pdf-lib';

/**
 * PDFs built in memory with pdf-lib and the standard 14 fonts, for the document pipeline tests.
 * Every builder returns the file's bytes; nothing is read from or written to disk here.
 */

const LETTER: [number, number] = [612, 792];
const MARGIN = 72;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  symbol: PDFFont;
  italic: PDFFont;
}

async function newDoc(): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create();
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    symbol: await doc.embedFont(StandardFonts.Symbol),
    italic: await doc.embedFont(StandardFonts.TimesRomanItalic),
  };
  return { doc, fonts };
}

async function save(doc: PDFDocument): Promise<Buffer> {
  return Buffer.from(await doc.save());
}

/** Draws lines top-down from `y`, `leading` apart; returns the y under the last line. */
function drawLines(page: PDFPage, lines: string[], opts: { x: number; y: number; size: number; font: PDFFont; leading?: number }): number {
  let y = opts.y;
  for (const line of lines) {
    page.drawText(line, { x: opts.x, y, size: opts.size, font: opts.font });
    y -= opts.leading ?? opts.size * 1.3;
  }
  return y;
}

export const HEADING_TEXT = 'Introduction to Folio';
export const PARAGRAPH_ONE = [
  'Folio turns documents into Markdown with LaTeX for',
  'the maths. This first paragraph spans three lines of',
  'body text set in a regular face at eleven points.',
];
export const PARAGRAPH_TWO = ['The second paragraph follows after a blank gap and', 'ends with a hyphen-', 'ated word that must be joined again.'];

/** One page: a bold 20 pt heading and two 11 pt paragraphs, the second with a hyphenated line end. */
export async function headingAndParagraphsPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const page = doc.addPage(LETTER);
  page.drawText(HEADING_TEXT, { x: MARGIN, y: 700, size: 20, font: fonts.bold });
  const y = drawLines(page, PARAGRAPH_ONE, { x: MARGIN, y: 660, size: 11, font: fonts.regular });
  drawLines(page, PARAGRAPH_TWO, { x: MARGIN, y: y - 14, size: 11, font: fonts.regular });
  return save(doc);
}

/** One page, two columns of 11 pt text with a 36 pt gutter and no full-width line. */
export async function twoColumnPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const page = doc.addPage(LETTER);
  const left = Array.from({ length: 6 }, (_, i) => `Left column line ${i + 1} text`);
  const right = Array.from({ length: 6 }, (_, i) => `Right column line ${i + 1} text`);
  drawLines(page, left, { x: MARGIN, y: 700, size: 11, font: fonts.regular });
  drawLines(page, right, { x: 324, y: 700, size: 11, font: fonts.regular });
  return save(doc);
}

export const LIST_ITEMS = ['First item of the list', 'Second item of the list', 'Third item of the list'];

/** One page: an intro line, three bullet items (WinAnsi bullet), then two numbered items. */
export async function bulletListPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const page = doc.addPage(LETTER);
  page.drawText('Things to remember:', { x: MARGIN, y: 700, size: 11, font: fonts.regular });
  let y = 680;
  for (const item of LIST_ITEMS) {
    page.drawText('\u2022', { x: MARGIN + 10, y, size: 11, font: fonts.regular });
    page.drawText(item, { x: MARGIN + 22, y, size: 11, font: fonts.regular });
    y -= 15;
  }
  y -= 10;
  ['Numbered one', 'Numbered two'].forEach((item, i) => {
    page.drawText(`${i + 1}.`, { x: MARGIN + 10, y, size: 11, font: fonts.regular });
    page.drawText(item, { x: MARGIN + 24, y, size: 11, font: fonts.regular });
    y -= 15;
  });
  return save(doc);
}

export const RUNNING_HEADER = 'Folio Quarterly Report';

/** `pages` pages, each with a running header, one body line `Body of page N.` and a centred page number footer. */
export async function pagedPdf(pages = 5): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage(LETTER);
    page.drawText(RUNNING_HEADER, { x: MARGIN, y: 750, size: 9, font: fonts.regular });
    page.drawText(`Body of page ${n}.`, { x: MARGIN, y: 650, size: 11, font: fonts.regular });
    drawLines(page, ['More text follows on this page so that the body has', 'a second line of ordinary prose.'], {
      x: MARGIN,
      y: 630,
      size: 11,
      font: fonts.regular,
    });
    const label = String(n);
    page.drawText(label, { x: 306 - fonts.regular.widthOfTextAtSize(label, 9) / 2, y: 36, size: 9, font: fonts.regular });
  }
  return save(doc);
}

export const LINK_URL = 'https://example.com/folio';

/** One page whose line 'Visit the Folio website for details.' has a URI link over 'Folio website'. */
export async function linkPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const page = doc.addPage(LETTER);
  const before = 'Visit the ';
  const linked = 'Folio website';
  const size = 11;
  const x0 = MARGIN + fonts.regular.widthOfTextAtSize(before, size);
  const x1 = x0 + fonts.regular.widthOfTextAtSize(linked, size);
  page.drawText(`${before}${linked} for details.`, { x: MARGIN, y: 700, size, font: fonts.regular });
  const annot = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [x0 - 1, 697, x1 + 1, 711],
    Border: [0, 0, 0],
    A: { Type: 'Action', S: 'URI', URI: PDFString.of(LINK_URL) },
  });
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(annot)]));
  return save(doc);
}

/** A tiny grey-gradient RGB PNG made by hand (IHDR, one zlib IDAT, IEND). */
export function tinyPng(width = 32, height = 32): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.fill((x * 8 + y * 4) & 0xff, row + 1 + x * 3, row + 4 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter method, no interlace
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** Three pages: text, an image-only ("scanned") page, and a blank page. */
export async function mixedScannedPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const first = doc.addPage(LETTER);
  first.drawText('A born-digital page with real text.', { x: MARGIN, y: 700, size: 11, font: fonts.regular });
  const scanned = doc.addPage(LETTER);
  const png = await doc.embedPng(tinyPng());
  scanned.drawImage(png, { x: 0, y: 0, width: LETTER[0], height: LETTER[1] });
  doc.addPage(LETTER);
  return save(doc);
}

/** One page with maths: Symbol-font Greek and relations inline, x² as a raised small digit, and a centred display line. */
export async function mathPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc();
  const page = doc.addPage(LETTER);
  const size = 11;
  let x = MARGIN;
  const y = 700;
  const run = (text: string, font: PDFFont, dy = 0, s = size) => {
    page.drawText(text, { x, y: y + dy, size: s, font });
    x += font.widthOfTextAtSize(text, s);
  };
  run('Assume ', fonts.regular);
  run('\u03b1 \u2264 \u03b2', fonts.symbol);
  run(' and that ', fonts.regular);
  run('x', fonts.italic);
  run('2', fonts.regular, 4, 7);
  run(' is small.', fonts.regular);
  // Display line, centred on the page: ∑ a ≤ γ
  const parts: [string, PDFFont][] = [
    ['\u2211', fonts.symbol],
    [' a ', fonts.italic],
    ['\u2264 \u03b3', fonts.symbol],
  ];
  const width = parts.reduce((w, [t, f]) => w + f.widthOfTextAtSize(t, 14), 0);
  let dx = 306 - width / 2;
  for (const [t, f] of parts) {
    page.drawText(t, { x: dx, y: 650, size: 14, font: f });
    dx += f.widthOfTextAtSize(t, 14);
  }
  page.drawText('The display above ends the example.', { x: MARGIN, y: 600, size, font: fonts.regular });
  return save(doc);
}

/** A minimal hand-written PDF whose trailer names a Standard security handler with unknown O/U entries. */
export function encryptedPdf(): Buffer {
  const hex32 = 'a1'.repeat(32);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex32}> /U <${hex32}> /P -44 >>`,
  ];
  const id = '0123456789abcdef0123456789abcdef';
  return assemblePdf(objects, `/Encrypt 4 0 R /ID [<${id}> <${id}>]`);
}

/**
 * A classic hand-written PDF from object bodies (numbered from 1) with a correct xref table.
 * `xrefPatch` adds trailer entries that need the xref's offset (hostile files point /Prev at it).
 */
export function assemblePdf(objects: string[], trailerExtra = '', xrefPatch?: (xrefOffset: number) => string): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${xrefPatch ? xrefPatch(xref) : ''} ${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The first half of a valid multi-page PDF. */
export async function truncatedPdf(): Promise<Buffer> {
  const whole = await pagedPdf(3);
  return whole.subarray(0, Math.floor(whole.length / 2));
}

export function zeroBytePdf(): Buffer {
  return Buffer.alloc(0);
}

/**
 * Three pages; the second is a runaway: a chain of `depth` form XObjects, each painting a tiny
 * square and the next form twice, so reading it means 2^depth form calls (minutes of CPU at depth
 * 28). Pages 1 and 3 say `Body of page N.` in Helvetica.
 */
export function runawayPagePdf(depth = 28): Buffer {
  const stream = (dict: string, content: string) => `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
  const text = (n: number) => stream('', `BT /F1 12 Tf 72 700 Td (Body of page ${n}.) Tj ET`);
  const page = (content: number, resources: string) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources ${resources} >>`;
  const FORMS = 10;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R 7 0 R] /Count 3 >>',
    page(4, '<< /Font << /F1 9 0 R >> >>'),
    text(1),
    page(6, `<< /XObject << /X ${FORMS} 0 R >> >>`),
    stream('', '/X Do'),
    page(8, '<< /Font << /F1 9 0 R >> >>'),
    text(3),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (let i = 0; i < depth; i++) {
    const last = i === depth - 1;
    const resources = last ? '' : `/Resources << /XObject << /X ${FORMS + i + 1} 0 R >> >>`;
    objects.push(stream(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${resources}`, last ? '0 0 1 1 re f' : '0 0 1 1 re f /X Do /X Do'));
  }
  return assemblePdf(objects);
}
