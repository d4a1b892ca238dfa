import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeConversions } from './conversions.js';

/** One member of a zip archive, read with Debian's unzip. */
function unzipMember(zip: Buffer, member: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-unzip-'));
  try {
    writeFileSync(join(dir, 'a.zip'), zip);
    return execFileSync('unzip', ['-p', join(dir, 'a.zip'), member]).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MMD = '# Results\n\nThe energy is \\(E = mc^2\\) and\n\n\\[\n\\frac{a}{b} = \\sqrt{x}\n\\]\n';

describe('writeConversions', () => {
  it('makes docx with a native Word equation, html with MathML, tex.zip, and reports unsupported formats', async () => {
    const out: Record<string, Buffer> = {};
    const status = await writeConversions(MMD, { docx: true, html: true, 'tex.zip': true, md: true, pptx: true, xlsx: false }, async (ext, body) => {
      out[ext] = Buffer.isBuffer(body) ? body : Buffer.from(body);
    });
    expect(status).toEqual({ docx: { status: 'completed' }, html: { status: 'completed' }, 'tex.zip': { status: 'completed' }, md: { status: 'completed' }, pptx: { status: 'error', error_id: 'unsupported_format' } });
    expect(out.docx!.subarray(0, 2).toString()).toBe('PK');
    const documentXml = unzipMember(out.docx!, 'word/document.xml');
    expect(documentXml).toContain('<m:oMath');
    expect(out.html!.toString()).toContain('<math');
    expect(out.html!.toString()).toContain('<mfrac>');
    const tex = unzipMember(out['tex.zip']!, 'document.tex');
    expect(tex).toContain('\\frac{a}{b}');
    expect(out.md!.toString()).toBe(MMD);
  });
});
