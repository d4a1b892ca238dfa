import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';
import { findOnPath } from './office.js';

/**
 * Born-digital prose as its author wrote it: tall inline formulas stay inline in their paragraph
 * (never a display of `\text{…}` words), lists keep their bullets one item a line (pdfTeX's
 * bullet has no Unicode; a word processor tabs from its bullet to the text), and paragraphs a
 * word processor sets apart by space stay apart; an inline root keeps all it covers.
 */

const LATEX = String.raw`This is a line with $\dfrac{a+b}{c+d}$ inside the prose of the paragraph and more words to
fill it. Another line holds $\displaystyle\sum_{i=1}^{n} x_i$ as an inline formula in the middle of a sentence here.

We list the properties:
\begin{itemize}
\item The sequence is increasing for positive starting values.
\item Every term is odd when $a_0$ is odd.
\end{itemize}
The area under the parabola is
\[ \int_0^1 x^2\,dx = \frac{1}{3} \]
as computed before.

Short $x^2$ line.

$a+b$ is a sum.

$\sqrt{x^2+1}$ starts this line of prose.

The value $\frac{1}{\sqrt{x^2+1}}$ is small.`;

const MARKDOWN = [
  '# Energy and angles',
  '',
  'First paragraph with some words, and more words after it so that the paragraph wraps over more than one line of the page in the rendered document.',
  '',
  'Second paragraph with a few words.',
  '',
  'Third paragraph is short.',
  '',
  '- item one',
  '- item two with more words that run on long enough to wrap onto a second line of the page so the item continues below',
  '- item three',
  '',
  '1. first step',
  '2. second step',
  '',
  'After the list a paragraph.',
].join('\n');

const office = Boolean((await findOnPath('soffice')) && (await findOnPath('pandoc')));
let pdf: LatexPdf;
let dir: string;

beforeAll(async () => {
  pdf = await compileLatex(LATEX);
  dir = await mkdtemp(join(tmpdir(), 'folio-prose-blocks-'));
  if (office) {
    await writeFile(join(dir, 'note.md'), MARKDOWN);
    await promisify(execFile)('pandoc', ['note.md', '-o', 'note.docx'], { cwd: dir });
  }
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('born-digital prose blocks', () => {
  it('keeps tall inline formulas inline, itemize bullets as a list, a display as a display, one-line paragraphs apart', async () => {
    const { mmd } = await convertDocument(pdf.path);
    const blocks = mmd.split('\n\n');
    expect(blocks[0]).toBe(
      'This is a line with \\( \\frac{a+b}{c+d} \\) inside the prose of the paragraph and more words to fill it. ' +
        'Another line holds \\( \\sum_{i=1}^{n}x_{i} \\) as an inline formula in the middle of a sentence here.',
    );
    expect(mmd).not.toContain('\\text{');
    expect(blocks[1]).toBe('We list the properties:');
    expect(blocks[2]).toBe(
      '\\begin{itemize}\n\\item The sequence is increasing for positive starting values.\n\\item Every term is odd when \\( a_{0} \\) is odd.\n\\end{itemize}',
    );
    expect(blocks[3]).toBe('The area under the parabola is');
    expect(blocks[4]).toMatch(/^\\\[\n\\int_\{0\}\^\{1\}x\^\{2\}.*dx=\\frac\{1\}\{3\}\n\\\]$/);
    // A formula's region reaches past the text layer's pen positions to its glyphs' ink: the root keeps its last `1`;
    // a root in an inline denominator (its sign a text-layer line of its own) stays in the fraction, inline.
    expect(blocks.slice(5)).toEqual([
      'as computed before.',
      'Short \\( x^{2} \\) line.',
      '\\( a+b \\) is a sum.',
      '\\( \\sqrt{x^{2}+1} \\) starts this line of prose.',
      'The value \\( \\frac{1}{\\sqrt{x^{2}+1}} \\) is small.',
    ]);
  }, 60_000);

  it.skipIf(!office)(
    'reads a DOCX through LibreOffice with its paragraphs apart and, with disable_itemize, its bulleted and numbered lists one item a line (skipped: soffice or pandoc missing)',
    async () => {
      const { mmd } = await convertDocument(join(dir, 'note.docx'), { disableItemize: true });
      expect(mmd.split('\n\n')).toEqual([
        '## Energy and angles',
        'First paragraph with some words, and more words after it so that the paragraph wraps over more than one line of the page in the rendered document.',
        'Second paragraph with a few words.',
        'Third paragraph is short.',
        '- item one\n- item two with more words that run on long enough to wrap onto a second line of the page so the item continues below\n- item three',
        '1. first step\n2. second step',
        'After the list a paragraph.',
      ]);
    },
    200_000,
  );
});
