import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertDocument } from './index.js';
import { compactLatex, pandocTokens, readSourceMaths } from './office-maths.js';
import { SourceMathsPlacer } from './office-maths-place.js';

const run = promisify(execFile);
const DELIMITERS = { inline: ['\\(', '\\)'] as [string, string], display: ['\\[', '\\]'] as [string, string] };
let dir: string;

/** A DOCX whose formulas are Word equations (OMML), as pandoc writes them from Markdown maths. */
const SOURCE = [
  '# Energy and angles',
  '',
  'First paragraph with $E=mc^2$ inline, and more words after it.',
  '',
  'Second paragraph with $\\alpha+\\beta$.',
  '',
  '$$\\int_0^1 x^2\\,dx=\\frac{1}{3}$$',
  '',
  '- item one',
  '- item two with $n+1$',
  '',
].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-office-maths-'));
  await writeFile(join(dir, 'note.md'), SOURCE);
  await run('pandoc', ['note.md', '-o', 'note.docx'], { cwd: dir });
  await run('pandoc', ['note.md', '-o', 'note.odt'], { cwd: dir });
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('office maths read from the file', () => {
  it('lists the words and Word equations of a DOCX in order, LaTeX without idle spaces', async () => {
    const tokens = (await readSourceMaths(join(dir, 'note.docx'), 'docx', 60_000))!;
    const maths = tokens.filter((t) => t.kind === 'math');
    expect(maths.map((m) => m.kind === 'math' && [m.latex, m.display])).toEqual([
      ['E=mc^{2}', false],
      ['\\alpha+\\beta', false],
      ['\\int_{0}^{1}x^{2}\\,dx=\\frac{1}{3}', true],
      ['n+1', false],
    ]);
    expect(compactLatex('\\alpha b + \\sin x')).toBe('\\alpha b+\\sin x');
  });

  it('reads the formula objects of an ODT (MathML) in place, a formula alone in its paragraph as a display', async () => {
    const tokens = (await readSourceMaths(join(dir, 'note.odt'), 'odt', 60_000))!;
    const maths = tokens.filter((t) => t.kind === 'math');
    expect(maths.map((m) => m.kind === 'math' && [m.latex, m.display])).toEqual([
      ['E=mc^{2}', false],
      ['\\alpha+\\beta', false],
      ['\\int_{0}^{1}x^{2}\\,dx=\\frac{1}{3}', true],
      ['n+1', false],
    ]);
    const words = tokens.map((t) => (t.kind === 'word' ? t.key : '$'));
    expect(words.slice(0, 8)).toEqual(['energy', 'and', 'angles', 'first', 'paragraph', 'with', '$', 'inline']);
    expect(words).toContain('.'); // "$\\alpha+\\beta$." keeps its full stop apart from the formula
  });

  it('puts each formula back between the words around it, and moves line offsets to match', () => {
    const tokens = pandocTokens({
      blocks: [
        { t: 'Para', c: [{ t: 'Str', c: 'with' }, { t: 'Space' }, { t: 'Math', c: [{ t: 'InlineMath' }, 'a + b'] }, { t: 'Str', c: '.' }] },
        { t: 'Para', c: [{ t: 'Math', c: [{ t: 'DisplayMath' }, 'x = 1'] }] },
        { t: 'Para', c: [{ t: 'Str', c: 'Next' }, { t: 'Space' }, { t: 'Str', c: 'one' }] },
      ],
    });
    // What the PDF rendering without the formulas reads: a gap before the full stop, no display.
    const page = {
      mmd: 'with .\n\nNext one',
      lines: [
        { mmd: 'with .', start: 0, end: 6 },
        { mmd: 'Next one', start: 8, end: 16 },
      ],
    };
    const placed = new SourceMathsPlacer(tokens, DELIMITERS).place(page, true);
    expect(placed.mmd).toBe('with \\( a+b \\).\n\n\\[\nx=1\n\\]\n\nNext one');
    for (const l of placed.lines) expect(placed.mmd.slice(l.start, l.end)).toBe(l.mmd);
    expect(placed.lines[1]!.mmd).toBe('Next one');
  });

  it('a formula drawn as loose glyphs in the PDF is replaced, a list marker is kept', () => {
    const tokens = pandocTokens({
      blocks: [
        { t: 'Para', c: [{ t: 'Str', c: 'so' }, { t: 'Space' }, { t: 'Math', c: [{ t: 'InlineMath' }, 'x^{2}'] }, { t: 'Space' }, { t: 'Str', c: 'holds' }] },
        { t: 'BulletList', c: [[{ t: 'Plain', c: [{ t: 'Math', c: [{ t: 'InlineMath' }, 'y'] }, { t: 'Space' }, { t: 'Str', c: 'first' }] }]] },
      ],
    });
    const page = {
      mmd: 'so x 2 holds\n\n- first',
      lines: [
        { mmd: 'so x 2 holds', start: 0, end: 12 },
        { mmd: '- first', start: 14, end: 21 },
      ],
    };
    const placed = new SourceMathsPlacer(tokens, DELIMITERS).place(page, true);
    expect(placed.mmd).toBe('so \\( x^{2} \\) holds\n\n- \\( y \\) first');
  });

  it('a DOCX with Word equations and an ODT with formula objects keep them in their MMD, lines.mmd.json offsets still match', async () => {
    for (const name of ['note.docx', 'note.odt']) {
      const r = await convertDocument(join(dir, name), {});
      expect(r.mmd, name).toContain('First paragraph with \\( E=mc^{2} \\) inline');
      expect(r.mmd, name).toContain('Second paragraph with \\( \\alpha+\\beta \\).');
      expect(r.mmd, name).toMatch(/\\\[\n\\int_\{0\}\^\{1\}x\^\{2\}\\,dx=\\frac\{1\}\{3\}\n\\\]/);
      expect(r.mmd, name).toMatch(/item two with \\\( n\+1 \\\)$/m);
      const entries = r.linesMmdJson.pages.flatMap((p) => p.lines);
      for (const l of entries) expect(r.mmd.slice(l.mmd_start, l.mmd_end), name).toBe(l.text);
    }
  }, 200_000);
});
