import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEX_NAME, compileLatex, latexError, unicodeHeader, writeLatexSource } from './convert-latex.js';
import { SOURCE_NAME } from './convert-pandoc.js';
import { FormatError } from './convert-tool.js';

/** Runs `fn` in a scratch folder holding `mmd` as the conversion source. */
async function inScratch<T>(mmd: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-latex-test-'));
  try {
    await writeFile(join(dir, SOURCE_NAME), mmd);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString();

describe('unicodeHeader', () => {
  it('declares only the table characters the document uses', () => {
    const header = unicodeHeader('x ≤ y and α, plain ascii, é');
    expect(header).toContain('\\DeclareUnicodeCharacter{2264}{\\ensuremath{\\leq}}');
    expect(header).toContain('\\DeclareUnicodeCharacter{03B1}{\\ensuremath{\\alpha}}');
    expect(header).not.toContain('{00E9}'); // LaTeX's T1 encoding already has é
    expect(header.match(/DeclareUnicodeCharacter/g)).toHaveLength(2);
  });
});

describe('compileLatex', () => {
  const compile = (mmd: string) =>
    inScratch(mmd, async (dir) => {
      await writeLatexSource(mmd, dir);
      const build = await compileLatex(dir);
      return { build, tex: await readFile(join(dir, TEX_NAME), 'utf8') };
    });

  it('compiles text and maths full of characters LaTeX has no glyph for', async () => {
    const { build } = await compile('# Über ∑ 漢字\n\nText: α β γ ≠ ∞, µm, 5 × 3, “quoted” — and Привет, 😀.\n\nMaths: \\(α + β ≤ γ × δ\\) and \\(x ∈ ℝ\\).\n');
    if (!('pdf' in build)) throw build.failure;
    const text = pdfText(build.pdf);
    expect(text).toContain('Über');
    expect(text).toMatch(/α β γ ̸?=/);
    expect(text).toContain('“quoted”');
    expect(text).toContain('?'); // Cyrillic, CJK and emoji print as boxed question marks
    expect(build.unrendered).toBe(0);
  });

  it('shows formulas pdflatex cannot set as their source and keeps the rest', async () => {
    const { build, tex } = await compile('Good \\(a^2\\), bad \\(x_1_2\\) and\n\n\\[\n\\frac{1}\n\\]\n\nthen \\(\\nosuchmacro{y}\\) and \\(\\sqrt{b}\\).\n');
    if (!('pdf' in build)) throw build.failure;
    expect(build.unrendered).toBe(3);
    const text = pdfText(build.pdf).replace(/\s+/g, ' ');
    expect(text).toContain('x_1_2');
    expect(text).toContain('\\frac{1}');
    expect(text).toContain('\\nosuchmacro{y}');
    expect(tex).toContain('\\(a^2\\)');
    expect(tex).toContain('\\folioUnrendered{\\textbackslash{}(x\\_1\\_2\\textbackslash{})}');
  });

  it('reports an error outside any formula with its line', async () => {
    const { build } = await compile('Fine text.\n\nRaw \\nosuchcommand in the prose.\n');
    expect('failure' in build && build.failure).toBeInstanceOf(FormatError);
    expect(build).toMatchObject({
      failure: {
        errorId: 'sys_exception',
        message: expect.stringMatching(/^pdflatex could not compile the document: .*document\.tex:\d+: Undefined control sequence/),
      },
    });
  });

  it('reads no file outside its scratch folder', async () => {
    const { build } = await compile('Secret: \\input{/etc/hostname}\n');
    expect(build).toMatchObject({ failure: { errorId: 'sys_exception', message: expect.stringContaining('/etc/hostname') } });
  });
});

describe('latexError', () => {
  it('takes the file:line error and the offending input, or the last lines when there is none', () => {
    const log =
      'This is pdfTeX\n(./document.tex\n./document.tex:12: Undefined control sequence.\nl.12 Broken \\(\\nosuchmacro\n                \\)\nNo pages of output.\n';
    expect(latexError(log)).toBe('./document.tex:12: Undefined control sequence. l.12 Broken \\(\\nosuchmacro \\)');
    expect(latexError('one\ntwo\n\nthree\n')).toBe('two three');
  });
});
