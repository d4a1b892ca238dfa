import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/**
 * Real files of the formats Debian cannot write: hand-built to each format's published layout
 * (WordPerfect 5.x, PalmDB/MOBI), or encoded with djvulibre's own c44 from a rendered page.
 */

/**
 * A WordPerfect 5.x document: the 16-byte prefix (0xFF 'WPC', pointer to the document area,
 * product 1 = WordPerfect, file type 10 = document, major version 0 = 5.x), then the text, in
 * which byte 0x0A is a hard return. LibreOffice (libwpd) imports it.
 */
export function wpdFile(paragraphs: string[]): Buffer {
  const prefix = Buffer.alloc(16);
  prefix.write('\xffWPC', 0, 'latin1');
  prefix.writeUInt32LE(16, 4);
  prefix[8] = 1;
  prefix[9] = 10;
  return Buffer.concat([prefix, Buffer.from(paragraphs.map((p) => `${p}\n`).join(''), 'latin1')]);
}

export interface MobiOptions {
  title: string;
  /** One HTML fragment per chapter; chapters are joined with <mbp:pagebreak/>. */
  chapters: string[];
  /** PalmDOC encryption field: 0 none, 1 old Mobipocket, 2 Mobipocket DRM. @defaultValue 0 */
  encryption?: number;
  /** Image records (PNG, JPEG…), referenced from the chapters as `<img recindex="1">` onwards. */
  images?: Buffer[];
}

const TEXT_RECORD_SIZE = 4096;
const NO_INDEX = 0xffffffff;
const EOF_RECORD = Buffer.from([0xe9, 0x8e, 0x0d, 0x0a]);

/**
 * A MOBI (Mobipocket 6) book: PalmDB header 'BOOKMOBI', record 0 with the PalmDOC header, a
 * 232-byte MOBI header and an EXTH block (title, author), then uncompressed UTF-8 text records of
 * at most 4096 bytes, then the image records, then the end-of-file record.
 */
export function mobiFile(opts: MobiOptions): Buffer {
  const html = Buffer.from(`<html><head><guide></guide></head><body>${opts.chapters.join('<mbp:pagebreak/>')}</body></html>`, 'utf8');
  const text = textRecords(html);
  const mobi = mobiHeader(opts, 6, 232, html.length, text.length);
  return palmDb(opts.title, [recordZero(opts, mobi, html.length, text.length), ...text, ...(opts.images ?? []), EOF_RECORD]);
}

/**
 * An AZW3 (KF8) book: like a MOBI, but the text is one flow (listed in an FDST record) cut into
 * skeletons, one XHTML document per chapter, listed in a SKEL index (name, fragment count,
 * offset and length); the FRAG index, for fragments spliced into skeletons, is empty. Images are
 * referenced as `kindle:embed:0001?mime=image/png` onwards.
 */
export function azw3File(opts: MobiOptions): Buffer {
  const skeletons = opts.chapters.map((c) =>
    Buffer.from(
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${opts.title}</title></head><body>${c}</body></html>`,
      'utf8',
    ),
  );
  const flow = Buffer.concat(skeletons);
  const text = textRecords(flow);
  const images = opts.images ?? [];
  const frag = text.length + 1 + images.length; // record numbers of the indexes and the FDST
  const skel = frag + 1;
  const fdst = skel + 2;
  const mobi = mobiHeader(opts, 8, 264, flow.length, text.length);
  mobi.writeUInt32BE(fdst, 176); // record 0 offset 192: FDST record
  mobi.writeUInt32BE(1, 180); // one flow
  mobi.writeUInt32BE(frag, 232);
  mobi.writeUInt32BE(skel, 236);
  mobi.writeUInt32BE(NO_INDEX, 244); // no guide
  let offset = 0;
  const skelEntries = skeletons.map((sk, i) => {
    const entry = indexEntry(`SKEL${String(i).padStart(10, '0')}`, 0x05, [0, offset, sk.length]); // tag 1: no fragments; tag 6: offset, length
    offset += sk.length;
    return entry;
  });
  const fdstRecord = Buffer.alloc(20);
  fdstRecord.write('FDST', 0, 'latin1');
  fdstRecord.writeUInt32BE(12, 4);
  fdstRecord.writeUInt32BE(1, 8);
  fdstRecord.writeUInt32BE(flow.length, 16); // the flow runs from 0 to the end of the text
  const fragTags: [number, number, number][] = [
    [2, 1, 0x01],
    [3, 1, 0x02],
    [4, 1, 0x04],
    [6, 2, 0x08],
  ];
  return palmDb(opts.title, [
    recordZero(opts, mobi, flow.length, text.length),
    ...text,
    ...images,
    indexHeader(fragTags, 0),
    indexHeader(
      [
        [1, 1, 0x03],
        [6, 2, 0x0c],
      ],
      1,
    ),
    indexData(skelEntries),
    fdstRecord,
    EOF_RECORD,
  ]);
}

function textRecords(text: Buffer): Buffer[] {
  const records: Buffer[] = [];
  for (let at = 0; at < text.length; at += TEXT_RECORD_SIZE) records.push(text.subarray(at, at + TEXT_RECORD_SIZE));
  return records;
}

function palmDb(title: string, records: Buffer[]): Buffer {
  const header = Buffer.alloc(78);
  header.write(title.replace(/[^A-Za-z0-9]/g, '_').slice(0, 31), 0, 'latin1');
  header.write('BOOKMOBI', 60, 'latin1');
  header.writeUInt16BE(records.length, 76);
  const list = Buffer.alloc(records.length * 8 + 2); // + the two gap bytes PalmDB puts before record 0
  let offset = header.length + list.length;
  records.forEach((rec, i) => {
    list.writeUInt32BE(offset, i * 8);
    list.writeUInt32BE(i * 2, i * 8 + 4); // attributes 0, unique id
    offset += rec.length;
  });
  return Buffer.concat([header, list, ...records]);
}

/** The MOBI header of record 0 (offsets below are from its 'MOBI' magic, 16 bytes into record 0). */
function mobiHeader(opts: MobiOptions, version: number, length: number, textLength: number, textRecordCount: number): Buffer {
  const mobi = Buffer.alloc(length);
  mobi.write('MOBI', 0, 'latin1');
  mobi.writeUInt32BE(length, 4);
  mobi.writeUInt32BE(2, 8); // Mobipocket book
  mobi.writeUInt32BE(65001, 12); // UTF-8
  mobi.writeUInt32BE(0x466f6c69, 16); // unique id
  mobi.writeUInt32BE(version, 20); // 6: MOBI, 8: KF8
  for (let at = 24; at < 64; at += 4) mobi.writeUInt32BE(NO_INDEX, at); // orthographic…extra indexes
  mobi.writeUInt32BE(textRecordCount + 1, 64); // first non-book record
  mobi.writeUInt32BE(Buffer.byteLength(opts.title), 72); // full-name length; its offset is set in recordZero
  mobi.writeUInt32BE(9, 76); // locale: English
  mobi.writeUInt32BE(version, 88); // minimum reader version
  mobi.writeUInt32BE(textRecordCount + 1, 92); // first image record, right after the text
  mobi.writeUInt32BE(0x40, 112); // EXTH present
  mobi.writeUInt32BE(NO_INDEX, 228); // no NCX index
  return mobi;
}

function recordZero(opts: MobiOptions, mobi: Buffer, textLength: number, textRecordCount: number): Buffer {
  const palmdoc = Buffer.alloc(16);
  palmdoc.writeUInt16BE(1, 0); // no compression
  palmdoc.writeUInt32BE(textLength, 4);
  palmdoc.writeUInt16BE(textRecordCount, 8);
  palmdoc.writeUInt16BE(TEXT_RECORD_SIZE, 10);
  palmdoc.writeUInt16BE(opts.encryption ?? 0, 12);
  const exth = exthBlock([
    [503, opts.title],
    [100, 'Folio Test Suite'],
  ]);
  mobi.writeUInt32BE(16 + mobi.length + exth.length, 68); // full-name offset in record 0
  const title = Buffer.from(opts.title, 'utf8');
  return Buffer.concat([palmdoc, mobi, exth, title, Buffer.alloc(4 - (title.length % 4))]);
}

/** An INDX header record: its TAGX table ([tag, values per entry, control-byte mask]), one control byte. */
function indexHeader(tags: [number, number, number][], dataRecords: number): Buffer {
  const head = Buffer.alloc(192);
  head.write('INDX', 0, 'latin1');
  head.writeUInt32BE(head.length, 4);
  head.writeUInt32BE(dataRecords, 24);
  head.writeUInt32BE(65001, 28);
  const tagx = Buffer.alloc(12 + (tags.length + 1) * 4);
  tagx.write('TAGX', 0, 'latin1');
  tagx.writeUInt32BE(tagx.length, 4);
  tagx.writeUInt32BE(1, 8);
  tags.forEach(([tag, values, mask], i) => tagx.set([tag, values, mask, 0], 12 + i * 4));
  tagx.set([0, 0, 0, 1], 12 + tags.length * 4); // end of the control byte
  return Buffer.concat([head, tagx]);
}

/** One index entry: its name, its control byte, then its values as forward variable-width integers. */
function indexEntry(name: string, control: number, values: number[]): Buffer {
  const varLen = (v: number) => {
    const bytes = [v & 0x7f];
    for (v >>>= 7; v > 0; v >>>= 7) bytes.unshift(v & 0x7f);
    bytes[bytes.length - 1]! |= 0x80; // the high bit marks the last byte
    return bytes;
  };
  return Buffer.from([name.length, ...Buffer.from(name, 'latin1'), control, ...values.flatMap(varLen)]);
}

/** An INDX data record: the entries, then the IDXT table of their offsets. */
function indexData(entries: Buffer[]): Buffer {
  const head = Buffer.alloc(192);
  head.write('INDX', 0, 'latin1');
  head.writeUInt32BE(head.length, 4);
  head.writeUInt32BE(1, 8);
  head.writeUInt32BE(entries.length, 24);
  const body = Buffer.concat(entries);
  const idxt = Buffer.alloc(4 + entries.length * 2);
  idxt.write('IDXT', 0, 'latin1');
  let offset = head.length;
  entries.forEach((e, i) => {
    idxt.writeUInt16BE(offset, 4 + i * 2);
    offset += e.length;
  });
  head.writeUInt32BE(head.length + body.length, 20);
  return Buffer.concat([head, body, idxt]);
}

function exthBlock(entries: [number, string][]): Buffer {
  const recs = entries.map(([type, value]) => {
    const data = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32BE(type, 0);
    head.writeUInt32BE(8 + data.length, 4);
    return Buffer.concat([head, data]);
  });
  const body = Buffer.concat(recs);
  const pad = (4 - (body.length % 4)) % 4;
  const head = Buffer.alloc(12);
  head.write('EXTH', 0, 'latin1');
  head.writeUInt32BE(12 + body.length + pad, 4);
  head.writeUInt32BE(recs.length, 8);
  return Buffer.concat([head, body, Buffer.alloc(pad)]);
}

/** A KFX container as Kindle apps store it: the 'CONT' magic and an ION body Folio cannot read. */
export function kfxContainerFile(): Buffer {
  const head = Buffer.alloc(18);
  head.write('CONT', 0, 'latin1');
  head.writeUInt16LE(2, 4); // container version
  head.writeUInt32LE(18, 6); // header length
  return Buffer.concat([head, Buffer.from([0xe0, 0x01, 0x00, 0xea])]);
}

/**
 * A one-page DjVu made by djvulibre's c44 from a greyscale page (150 dpi, US letter) on which
 * `lines` are rendered in large DejaVu Sans, so that OCR can read them back.
 */
export async function djvuFile(lines: string[]): Promise<Buffer> {
  const width = 1275;
  const height = 1650;
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const text = lines.map((l, i) => `<text x="120" y="${220 + i * 90}" font-family="DejaVu Sans" font-size="44">${escape(l)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  const grey = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const pgm = Buffer.concat([
    Buffer.from(`P5\n${grey.info.width} ${grey.info.height}\n255\n`, 'latin1'),
    grey.data.subarray(0, grey.info.width * grey.info.height),
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'folio-djvu-fx-'));
  try {
    await writeFile(join(dir, 'page.pgm'), pgm);
    await run('c44', ['-dpi', '150', join(dir, 'page.pgm'), join(dir, 'page.djvu')], { timeout: 60_000 });
    return await readFile(join(dir, 'page.djvu'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
