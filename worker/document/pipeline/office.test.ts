import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import { convertDocument } from './index.js';
import { findOnPath } from './office.js';

const soffice = await findOnPath('soffice');
let dir: string;
let docx: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-office-test-'));
  if (!soffice) return;
  const html = join(dir, 'note.html');
  await writeFile(html, '<html><body><h1>Quarterly Note</h1><p>Hello from a DOCX fixture made by LibreOffice.</p></body></html>');
  // HTML opens in Writer/Web, which needs the Word filter named to write DOCX.
  await promisify(execFile)(
    soffice,
    ['--headless', `-env:UserInstallation=file://${join(dir, 'profile')}`, '--convert-to', 'docx:MS Word 2007 XML', '--outdir', dir, html],
    { timeout: 120_000, env: { ...process.env, HOME: dir } },
  );
  docx = join(dir, 'note.docx');
}, 130_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('office documents', () => {
  it.skipIf(!soffice)(
    'converts a DOCX through LibreOffice to MMD with its heading and text (skipped: soffice not on PATH)',
    async () => {
      const r = await convertDocument(docx, {});
      expect(r.numPagesPdf).toBe(1);
      expect(r.pages[0]).toMatchObject({ status: 'completed', kind: 'text' });
      expect(r.mmd).toMatch(/^#+ Quarterly Note\n\n/);
      expect(r.mmd).toContain('Hello from a DOCX fixture made by LibreOffice.');
    },
    130_000,
  );

  it('fails with unsupported_format when soffice is not installed', async () => {
    // Enough of an OOXML zip for detection: one stored [Content_Types].xml entry.
    const ct = Buffer.from('<Types><Override ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt32LE(ct.length, 18);
    head.writeUInt32LE(ct.length, 22);
    head.writeUInt16LE(19, 26);
    const fake = join(dir, 'fake.docx');
    await writeFile(fake, Buffer.concat([head, Buffer.from('[Content_Types].xml'), ct]));
    const err = await convertDocument(fake, {}, { office: { soffice: join(dir, 'no-such-soffice') } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).id).toBe('unsupported_format');
    expect((err as ApiError).retryable).toBe(false);
  });

  it('reads an EPUB through pandoc and LibreOffice', async () => {
    const md = join(dir, 'book.md');
    await writeFile(md, '# Chapter One\n\nThe tide came in over the flats before dawn.\n');
    const epub = join(dir, 'book.epub');
    execFileSync('pandoc', [md, '-o', epub, '--metadata', 'title=Book']);
    const r = await convertDocument(epub, {});
    expect(r.mmd).toContain('Chapter One');
    expect(r.mmd).toContain('The tide came in over the flats before dawn.');
  }, 120_000);

  it('fails an unreadable EPUB with unsupported_format, not retryable', async () => {
    const mimetype = Buffer.from('application/epub+zip');
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt32LE(mimetype.length, 18);
    head.writeUInt32LE(mimetype.length, 22);
    head.writeUInt16LE(8, 26);
    const epub = join(dir, 'broken.epub');
    await writeFile(epub, Buffer.concat([head, Buffer.from('mimetype'), mimetype]));
    const err = await convertDocument(epub, {}).catch((e: unknown) => e);
    expect((err as ApiError).id).toBe('unsupported_format');
    expect((err as ApiError).retryable).toBe(false);
  });
});
