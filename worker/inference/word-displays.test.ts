import { describe, expect, it } from 'vitest';
import { assemblePage } from '../../page/assemble.js';
import type { MathRead } from '../../page/model.js';
import { pageMathEngines, readScannedPage } from '../../test/support/page-math-engines.js';
import { TextRecognizer } from '../engine/text/index.js';
import { columnLeft, holdsEquationNumber, namesAboutRelation, namesApart, readsNamesAboutRelation, readsNumberedDisplay } from './word-displays.js';

const LINE = 36;
const read = (latex: string, confidenceRate = 0.8): MathRead => ({ latex, confidence: confidenceRate ** 5, confidenceRate, symbolCount: 5 });

describe('rows of names about a relation', () => {
  it('takes an indented row of names about a lone relation for a possible display', () => {
    expect(namesAboutRelation('Twiddle First Ⅱ Second', 415, 195, LINE)).toBe(true);
    expect(namesAboutRelation('And (And a b) c = And a (And b c)', 954, 866, LINE)).toBe(true);
    expect(namesAboutRelation('Not = Twiddle', 1077, 866, LINE)).toBe(true);
    // The relation run into a name by the text model (lazylist's `Compose Twiddle Twiddle =Identity`).
    expect(namesAboutRelation('Compose Twiddle Twiddle =Identity', 264, 195, LINE)).toBe(true);
  });

  it('leaves prose: a sentence with a relation in it, a row at the edge, a relation at an end', () => {
    expect(namesAboutRelation('so we have x = 5 for every value', 415, 195, LINE)).toBe(false);
    expect(namesAboutRelation('Since the sum = Total, it follows', 415, 195, LINE)).toBe(false);
    expect(namesAboutRelation('Twiddle First = Second', 200, 195, LINE)).toBe(false);
    expect(namesAboutRelation('Twiddle First =', 415, 195, LINE)).toBe(false);
    expect(namesAboutRelation('Compose can be implemented in TEX as', 250, 195, LINE)).toBe(false);
    expect(namesAboutRelation('9: while N ≠ 0 do', 415, 195, LINE)).toBe(false);
  });

  it('takes two runs of names apart on one row for a possible display: the text model read nothing of the relation between them', () => {
    // lazylist's `Singleton a = Cons a Nil`, read as `Singleton a` and `Cons a Nil` 56 pixels apart.
    const row = [
      { x: 338, y: 1318, width: 151, height: 37 },
      { x: 545, y: 1318, width: 144, height: 37 },
    ];
    expect(namesApart(row, 39)).toBe(true);
    expect(namesAboutRelation('Singleton a Cons a Nil', 338, 195, 39, row)).toBe(true);
    expect(namesAboutRelation('Singleton a Cons a Nil', 338, 195, 39)).toBe(false);
    // Words a space apart, and lines one above the other (a numerator over its denominator), are no such row.
    expect(namesApart([row[0]!, { ...row[1]!, x: 500 }], 39)).toBe(false);
    expect(namesApart([row[0]!, { ...row[1]!, y: 1360 }], 39)).toBe(false);
    // Sentences stay prose however far apart their pieces stand.
    expect(namesAboutRelation('which is defined as the sum of', 338, 195, 39, row)).toBe(false);
  });

  it('takes the maths read when it holds the relation and spells its names in italic letters', () => {
    expect(readsNamesAboutRelation(read('TwiddleFirst=Second'))).toBe(true);
    expect(readsNamesAboutRelation(read('\\text{Twiddle}\\text{First}=\\text{Second}'))).toBe(false);
    expect(readsNamesAboutRelation(read('TwiddleFirst\\|Second'))).toBe(false);
    expect(readsNamesAboutRelation(read('TwiddleFirst=Second', 0.1))).toBe(false);
  });

  it('takes a row with an equation number of its own for a display when its maths read finds the number', () => {
    expect(holdsEquationNumber(['F= ma or p= mu or E= mc²', '(1)'])).toBe(true);
    expect(holdsEquationNumber(['(3) Third conclusion'])).toBe(false);
    expect(holdsEquationNumber(['in Eq. (3), and sets matrices in bold italic.'])).toBe(false);
    expect(readsNumberedDisplay({ ...read('F=ma\\text{or}p=mv'), tag: '1' })).toBe(true);
    expect(readsNumberedDisplay(read('F=ma\\text{or}p=mv'))).toBe(false);
    expect(readsNumberedDisplay({ ...read('\\text{See}\\text{the}\\text{next}\\text{page}'), tag: '1' })).toBe(false);
    // autonum's align of letters: `a (20)`, a letter alone beside its number, which the text model reads as a word.
    expect(readsNumberedDisplay({ ...read('a'), tag: '20' })).toBe(true);
    expect(readsNumberedDisplay(read('a'))).toBe(false);
    expect(readsNumberedDisplay({ ...read('ab'), tag: '20' })).toBe(false);
  });

  it("finds a column's left edge where most of its prose lines start, on the row's side of the gutter", () => {
    const lines = [
      ...[0, 1, 2, 3, 4].map((i) => ({ box: { x: i === 0 ? 250 : 195, width: 630 }, text: 'a line of prose in the left column' })),
      ...[0, 1, 2, 3].map(() => ({ box: { x: 866, width: 630 }, text: 'a line of prose in the right column' })),
      { box: { x: 1077, width: 200 }, text: 'Not = Twiddle' },
    ];
    expect(columnLeft(415, lines, 850)).toBe(195);
    expect(columnLeft(1077, lines, 850)).toBe(866);
    expect(columnLeft(415, lines, undefined)).toBe(195);
  });
});

/** A page of `body` typeset by pdflatex, rasterised at 200 dpi and read as /v3/pdf reads a scanned page. */
async function readScan(body: string) {
  const compile = { preamble: '\\usepackage[paperwidth=5in,paperheight=4in,margin=0.5in]{geometry}' };
  return assemblePage(await readScannedPage(body, compile, await TextRecognizer.load(), await pageMathEngines()));
}

const BEFORE = `The next function takes two arguments and gives back its second one, which makes it the
counterpart of the one we defined before it in the previous section of this note.`;
const AFTER = `Again, there are not many uses for such a function, but it comes in handy later on when we
sort lists of numbers, as the examples of the last section show.`;

describe('displays the text model reads as words, on a scanned page', () => {
  // lazylist's equations: the text model reads each row as words (`Twiddle f x y = f y x`), which
  // kept the first row as prose.
  it('reads the rows of an eqnarray of italic names as one aligned display', async () => {
    const page = await readScan(String.raw`${BEFORE}
\begin{eqnarray*} Twiddle~f~x~y & = & f~y~x \\ Compose~f~g~x & = & f~(g~x) \end{eqnarray*}
${AFTER}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual([
      '\\begin{aligned}Twiddlefxy&=fyx\\\\Composefgx&=f(gx)\\end{aligned}',
    ]);
    expect(page.lines.filter((l) => l.kind !== 'math')).toHaveLength(6);
  }, 180_000);

  // autonum's equations of one letter: the text model reads `a` as a word and its number apart.
  it('reads a numbered display of one letter as a display with its number', async () => {
    const page = await readScan(String.raw`${BEFORE}
\begin{equation} a \end{equation}
${AFTER}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => [l.math?.latex, l.math?.tag])).toEqual([['a', '1']]);
  }, 180_000);

  // asmejour's `\vec{F}=m\vec{a}\quad\textrm{or}\quad…` (3): read `F=ma or F=ma or …` and its number apart, as prose.
  it('reads a numbered display holding words as a display with its number', async () => {
    const page = await readScan(String.raw`${BEFORE}
\begin{equation} F = ma \quad\text{or}\quad p = mv \quad\text{or}\quad E = mc^{2} \end{equation}
${AFTER}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => [l.math?.latex, l.math?.tag])).toEqual([['F=ma\\text{or}p=mv\\text{or}E=mc^{2}', '1']]);
  }, 180_000);
});
