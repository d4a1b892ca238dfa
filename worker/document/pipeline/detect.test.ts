import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectType } from './detect.js';

/** One stored or deflated local zip entry; `descriptor` mimics writers that leave sizes to a data descriptor. */
function zipEntry(name: string, data: string, opts: { deflate?: boolean; descriptor?: boolean } = {}): Buffer {
  const body = opts.deflate ? deflateRawSync(Buffer.from(data)) : Buffer.from(data);
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(opts.descriptor ? 8 : 0, 6);
  head.writeUInt16LE(opts.deflate ? 8 : 0, 8);
  head.writeUInt32LE(opts.descriptor ? 0 : body.length, 18);
  head.writeUInt32LE(opts.descriptor ? 0 : data.length, 22);
  head.writeUInt16LE(Buffer.byteLength(name), 26);
  const descriptor = opts.descriptor ? Buffer.alloc(16) : Buffer.alloc(0);
  return Buffer.concat([head, Buffer.from(name), body, descriptor]);
}

const CT = (main: string) =>
  `<?xml version="1.0"?><Types><Override PartName="/x" ContentType="application/vnd.openxmlformats-officedocument.${main}"/></Types>`;

describe('detectType', () => {
  it('finds a PDF header, also after leading junk', async () => {
    expect(await detectType(Buffer.from('%PDF-1.7\n...'))).toBe('pdf');
    expect(await detectType(Buffer.from('\r\n  junk %PDF-1.4'))).toBe('pdf');
  });

  it('knows OLE2 (doc) and RTF by their magic', async () => {
    expect(await detectType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe('doc');
    expect(await detectType(Buffer.from('{\\rtf1\\ansi hello}'))).toBe('rtf');
  });

  it('tells DOCX from PPTX by [Content_Types].xml, deflated and with a data descriptor', async () => {
    const docx = Buffer.concat([
      zipEntry('_rels/.rels', '<Relationships/>', { deflate: true, descriptor: true }),
      zipEntry('[Content_Types].xml', CT('wordprocessingml.document.main+xml'), { deflate: true, descriptor: true }),
    ]);
    expect(await detectType(docx)).toBe('docx');
    expect(await detectType(zipEntry('[Content_Types].xml', CT('presentationml.presentation.main+xml'), { deflate: true }))).toBe('pptx');
  });

  it('reads the mimetype entry of ODT and EPUB', async () => {
    expect(await detectType(zipEntry('mimetype', 'application/vnd.oasis.opendocument.text'))).toBe('odt');
    expect(await detectType(zipEntry('mimetype', 'application/epub+zip'))).toBe('epub');
    expect(await detectType(zipEntry('mimetype', 'application/vnd.oasis.opendocument.spreadsheet'))).toBe('unknown');
  });

  it('knows WordPerfect, PalmDB ebooks, KFX and DjVu by their magic', async () => {
    expect(await detectType(Buffer.from([0xff, 0x57, 0x50, 0x43, 16, 0, 0, 0, 1, 10, 0, 0]))).toBe('wpd');
    const palmDb = Buffer.alloc(78);
    palmDb.write('BOOKMOBI', 60, 'latin1');
    expect(await detectType(palmDb)).toBe('mobi');
    palmDb.write('TEXtREAd', 60, 'latin1'); // a PalmDOC text, not a Mobipocket book
    expect(await detectType(palmDb)).toBe('unknown');
    expect(await detectType(Buffer.from('CONT\x02\x00', 'latin1'))).toBe('kfx');
    expect(await detectType(Buffer.from('\xeaDRMION\xee...', 'latin1'))).toBe('kfx');
    expect(await detectType(Buffer.concat([zipEntry('B00TEST_EBOK.kfx', 'CONT'), zipEntry('metadata.kfx', 'CONT')]))).toBe('kfx');
    const iff = (type: string) => Buffer.concat([Buffer.from('AT&TFORM'), Buffer.from([0, 0, 0, 64]), Buffer.from(type)]);
    expect(await detectType(iff('DJVU'))).toBe('djvu');
    expect(await detectType(iff('DJVM'))).toBe('djvu');
    expect(await detectType(iff('AIFF'))).toBe('unknown');
  });

  it('calls anything else unknown', async () => {
    expect(await detectType(Buffer.from('GIF89a'))).toBe('unknown');
    expect(await detectType(Buffer.alloc(0))).toBe('unknown');
    expect(await detectType(zipEntry('hello.txt', 'hi'))).toBe('unknown');
  });
});
