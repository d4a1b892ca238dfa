import { open } from 'node:fs/promises';
import { constants, inflateRawSync } from 'node:zlib';

export type DocumentType = 'pdf' | 'docx' | 'doc' | 'pptx' | 'odt' | 'rtf' | 'epub' | 'wpd' | 'mobi' | 'kfx' | 'djvu' | 'unknown';

/** How many leading bytes `detectFileType` reads; zip containers keep their type entries first. */
export const HEAD_BYTES = 64 * 1024;

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL = 0x04034b50;
const LOCAL_SIG = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** WordPerfect 5.0 and later (4.x files have no signature and are not recognised). */
const WORDPERFECT = Buffer.from([0xff, 0x57, 0x50, 0x43]);
/** Amazon KFX: the container ('CONT') and its DRM-wrapped form ('\xeaDRMION\xee'). */
const KFX_CONTAINER = Buffer.from('CONT', 'latin1');
const KFX_DRMION = Buffer.from([0xea, 0x44, 0x52, 0x4d, 0x49, 0x4f, 0x4e, 0xee]);

/**
 * The document type from the first bytes of a file: magic numbers, and for zip containers the
 * `mimetype` entry (ODF, EPUB) or `[Content_Types].xml` and part names (OOXML).
 * OLE2 compound files are all reported as 'doc' (legacy .xls/.ppt share the magic).
 * Ebooks: a PalmDB whose type/creator at offset 60 is 'BOOKMOBI' is 'mobi' (MOBI, AZW and AZW3/KF8
 * all are); KFX containers, bare or zipped as .kfx-zip, are 'kfx'; DjVu ('AT&TFORM') is 'djvu'.
 */
export async function detectType(head: Buffer): Promise<DocumentType> {
  // pdf.js, like Acrobat, accepts a header anywhere in the first kilobyte.
  if (head.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (head.subarray(0, 8).equals(OLE2)) return 'doc';
  if (head.subarray(0, 5).toString('latin1') === '{\\rtf') return 'rtf';
  if (head.subarray(0, 4).equals(WORDPERFECT)) return 'wpd';
  if (head.subarray(60, 68).toString('latin1') === 'BOOKMOBI') return 'mobi';
  if (isKfx(head)) return 'kfx';
  // DjVu files start with the IFF85 'AT&T' prefix, then a FORM chunk of type DJVU (one page) or DJVM.
  if (head.subarray(0, 8).toString('latin1') === 'AT&TFORM' && /^DJV[UM]$/.test(head.subarray(12, 16).toString('latin1'))) return 'djvu';
  if (head.length >= 4 && head.readUInt32LE(0) === ZIP_LOCAL) return zipType(head);
  return 'unknown';
}

/** Reads the head of a file and detects its type. */
export async function detectFileType(path: string): Promise<DocumentType> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return detectType(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

function isKfx(head: Buffer): boolean {
  return head.subarray(0, 4).equals(KFX_CONTAINER) || head.subarray(0, 8).equals(KFX_DRMION);
}

function zipType(head: Buffer): DocumentType {
  const names: string[] = [];
  for (const entry of zipEntries(head)) {
    names.push(entry.name);
    // A .kfx-zip (Kindle downloads, Kindle Previewer output) holds the book as .kfx containers or a
    // .kdf database: no other format we know of uses those member names.
    if (/\.(kfx|kdf)$/i.test(entry.name)) return 'kfx';
    if (entry.name === 'mimetype') {
      const mime = entry.data().toString('latin1').trim();
      if (mime === 'application/epub+zip') return 'epub';
      if (mime === 'application/vnd.oasis.opendocument.text') return 'odt';
      return 'unknown';
    }
    if (entry.name === '[Content_Types].xml') {
      const xml = entry.data().toString('utf8');
      if (xml.includes('wordprocessingml.document.main+xml') || xml.includes('wordprocessingml.template.main+xml')) return 'docx';
      if (xml.includes('presentationml.presentation.main+xml') || xml.includes('presentationml.slideshow.main+xml')) return 'pptx';
    }
  }
  if (names.some((n) => n.startsWith('word/'))) return 'docx';
  if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
  return 'unknown';
}

interface ZipEntry {
  name: string;
  data(): Buffer;
}

/** Walks local file headers in the buffer; stops at the first entry whose data runs past it. */
function* zipEntries(buf: Buffer): Generator<ZipEntry> {
  let off = 0;
  while (off + 30 <= buf.length && buf.readUInt32LE(off) === ZIP_LOCAL) {
    const flags = buf.readUInt16LE(off + 6);
    const method = buf.readUInt16LE(off + 8);
    const compressed = buf.readUInt32LE(off + 18);
    const nameLen = buf.readUInt16LE(off + 26);
    const extraLen = buf.readUInt16LE(off + 28);
    const name = buf.subarray(off + 30, off + 30 + nameLen).toString('utf8');
    const start = off + 30 + nameLen + extraLen;
    // With a data descriptor (flag bit 3) the sizes here may be zero: the entry then runs to the
    // next local header (the descriptor's trailing bytes are ignored by the inflater).
    const sized = !(flags & 8) || compressed > 0;
    const next = sized ? start + compressed : buf.indexOf(LOCAL_SIG, start);
    const raw = buf.subarray(start, next === -1 ? buf.length : next);
    yield {
      name,
      data: () => {
        if (method === 0) return raw;
        try {
          return inflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH });
        } catch {
          return Buffer.alloc(0);
        }
      },
    };
    if (next === -1) return;
    off = next;
  }
}
