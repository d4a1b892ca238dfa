import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';
import { assemblePdf } from '../support/pdf-fixtures.js';

/**
 * Hostile inputs written by hand: a DOCX zip bomb, PDFs with reference loops, a PDF claiming a
 * million pages. Nothing here touches the disk.
 */

interface Entry {
  name: string;
  crc: number;
  size: number;
  data: Buffer; // raw deflate
}

function zip(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, e.data);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(0, 12);
    cd.writeUInt32LE(e.crc >>> 0, 16);
    cd.writeUInt32LE(e.data.length, 20);
    cd.writeUInt32LE(e.size >>> 0, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, end]);
}

const small = (name: string, text: string): Entry => {
  const b = Buffer.from(text, 'utf8');
  return { name, crc: crc32(b), size: b.length, data: deflateRawSync(b) };
};

/** A deflate stream of `head`, then `fillBytes` bytes of `fill`, then `tail`, made chunk by chunk (never held whole). */
async function bomb(name: string, head: string, fill: number, fillBytes: number, tail: string): Promise<Entry> {
  const chunk = Buffer.alloc(1 << 20, fill);
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((r) => deflate.on('end', r));
  let crc = 0;
  const write = async (b: Buffer) => {
    crc = crc32(b, crc);
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(Buffer.from(head));
  for (let n = 0; n < fillBytes; n += chunk.length) await write(n + chunk.length <= fillBytes ? chunk : chunk.subarray(0, fillBytes - n));
  await write(Buffer.from(tail));
  deflate.end();
  await done;
  return { name, crc, size: Buffer.byteLength(head) + fillBytes + Buffer.byteLength(tail), data: Buffer.concat(out) };
}

/** A DOCX whose word/document.xml expands to about `gb` GB (a text run of spaces) from about 1 MB. */
export async function docxZipBomb(gb = 1): Promise<Buffer> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t xml:space="preserve">`;
  const tail = '</w:t></w:r></w:p></w:body></w:document>';
  const doc = await bomb('word/document.xml', head, 0x20, Math.floor(gb * 1024 ** 3), tail);
  return zip([
    small(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    small(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    doc,
  ]);
}

const page = (parent: number, extra = '') => `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] ${extra} >>`;

/** The trailer's /Prev points at its own xref section, and the page tree's Kids point back at the root of the tree. */
export function recursiveXrefPdf(): Buffer {
  return assemblePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
      page(2, '/Contents 4 0 R /Resources << /XObject << /X1 5 0 R >> >>'),
      '<< /Length 5 0 R >>\nstream\nq /X1 Do Q\nendstream',
      '<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X1 5 0 R >> >> /Length 8 >>\nstream\nq /X1 Do Q\nendstream',
    ],
    '',
    (xref) => `/Prev ${xref}`,
  );
}

/** One real page under a page tree whose /Count claims 1,000,000 pages. */
export function millionPagesPdf(): Buffer {
  return assemblePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>', page(2)]);
}
