import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printHtmlPdf } from './convert-html-pdf.js';
import { SOURCE_NAME } from './convert-pandoc.js';

async function print(mmd: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-print-test-'));
  try {
    await writeFile(join(dir, SOURCE_NAME), mmd);
    const pdf = await printHtmlPdf(dir);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    return execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('printHtmlPdf', () => {
  it('prints the HTML rendering with its maths', async () => {
    const text = await print('# Heading\n\nInline \\(a^2 + b^2 = c^2\\) and a table:\n\n| x | y |\n|---|---|\n| 1 | 2 |\n');
    expect(text).toContain('Heading');
    expect(text).toContain('𝑎 + 𝑏 = 𝑐'); // MathML laid out (maths italic letters, raised exponents)
    expect(text).not.toMatch(/^Document$/m);
  });

  it('loads nothing the MMD points at and runs no raw HTML', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const text = await print(
        `<iframe src="file:///etc/hostname"></iframe>\n\n<script>document.write('SCRIPT RAN')</script>\n\n![pic](http://127.0.0.1:${port}/pic.png)\n\n<img src="http://localhost:${port}/raw.png">\n`,
      );
      expect(hits).toEqual([]);
      expect(text).toContain('<iframe src='); // shown as text, not embedded
      expect(text).not.toContain('SCRIPT RAN\n');
      expect(text).toContain('document.write(');
    } finally {
      server.close();
    }
  });
});
