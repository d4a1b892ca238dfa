import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannedCopy } from './scan.js';

const run = promisify(execFile);

describe('scanned copies of a document (the scanned texdoc evaluation)', () => {
  let dir: string;
  let source: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-scan-test-'));
    const tex = ['\\documentclass{article}', '\\begin{document}', 'First page \\[ a^2+b^2=c^2 \\]', '\\newpage', 'Second page', '\\end{document}'].join('\n');
    await writeFile(join(dir, 'doc.tex'), tex);
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir });
    source = await readFile(join(dir, 'doc.pdf'));
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const textOf = async (pdf: Buffer, name: string) => {
    await writeFile(join(dir, name), pdf);
    return (await run('pdftotext', [join(dir, name), '-'])).stdout;
  };

  it('keeps every page at its size and leaves no text layer to read', async () => {
    expect(await textOf(source, 'source.pdf')).toContain('Second page');
    const copy = await scannedCopy(source, 'clean');
    const [from, to] = await Promise.all([PDFDocument.load(source), PDFDocument.load(copy)]);
    expect(to.getPageCount()).toBe(2);
    expect(to.getPage(1).getSize()).toEqual(from.getPage(1).getSize());
    expect((await textOf(copy, 'clean.pdf')).trim()).toBe('');
  }, 60_000);

  it('takes the noisy copy as a scanner does, the same every time', async () => {
    const [clean, noisy, again] = await Promise.all([scannedCopy(source, 'clean'), scannedCopy(source, 'noisy'), scannedCopy(source, 'noisy')]);
    expect(noisy.equals(clean)).toBe(false);
    expect(noisy.equals(again)).toBe(true);
  }, 60_000);
});
