import { describe, expect, it } from 'vitest';
import type { MathRead } from '../../page/model.js';
import { ledByKeyword } from '../../page/processors/code-lines.js';
import { countWords, isWordy, isWordyInPrint } from '../../page/processors/words.js';
import { chemicalFormula, chooseKind, hasMathStructure, scriptsLost } from './line-kind.js';

const read = (latex: string, confidenceRate: number): MathRead => ({ latex, confidence: confidenceRate ** 5, confidenceRate, symbolCount: 5 });

describe('line kind', () => {
  it('counts words: letters runs of three or more that are not function names, and common short words', () => {
    expect(countWords('The quick brown fox.')).toEqual({ words: 4, wordChars: 16, chars: 17 });
    expect(countWords('sin x + cos y = 1').words).toBe(0);
    expect(countWords('f(x) dx = n2 n=1').words).toBe(0);
    expect(countWords('if x is odd').words).toBe(3);
    expect(countWords('a m-n x-y well-known').words).toBe(1); // a minus between letters makes no word
    expect(isWordy('a m-n')).toBe(false);
  });

  it('calls prose wordy and formulas not', () => {
    expect(isWordy('holds for every real number in the interval.')).toBe(true);
    expect(isWordy('Introduction')).toBe(true);
    expect(isWordy('Let x = 5')).toBe(true); // one word covering half the characters
    expect(isWordy('α² + b² = c2')).toBe(false);
    expect(isWordy('')).toBe(false);
  });

  it('sees structure in scripts, fractions, big operators and relations, not in a bare run of letters', () => {
    for (const l of ['x^{2}', 'a_{n}', '\\begin{bmatrix}1 & 0 \\\\ 0 & 1\\end{bmatrix}', '\\frac{a}{b}', '\\sqrt{x}', '\\sum x', 'a=b', 'a<b', 'a+b'])
      expect(hasMathStructure(l), l).toBe(true);
    for (const l of ['u\\perp v', '\\langle\\psi|\\hat{A}|\\psi\\rangle', '\\vec{v}']) expect(hasMathStructure(l), l).toBe(true);
    for (const l of ['Thequick', 'xyz', '42', '\\text{NaCl}']) expect(hasMathStructure(l), l).toBe(false);
  });

  it('takes a line whose maths read spells prose for text, whatever the text model read of it (rule 0)', () => {
    // Reference and footnote lines of a scanned two-column paper, whose small print the text model garbled.
    const reference = read('{}^{39}E.\\text{Beutler},\\text{in}WilliamsHemato\\log y,\\text{Vol}.2,\\text{edited}\\text{by E}.\\text{Beutler},', 0.73);
    expect(chooseKind('39E.euter,inWilamsHematolgVol.2ditdbEer,', reference)).toBe('text');
    const footnote = read('*_{\\text{Correspondi}\\text{Il}\\text{g author}:\\text{lienhard}\\Theta\\text{mit}.\\text{edu}}', 0.62);
    expect(chooseKind('*Corrspning tr: lnhar@mitd', footnote)).toBe('text');
    // A display's few upright words, or words set about a relation, stay maths.
    expect(chooseKind('', read('p_{j}=\\begin{cases}0,&\\text{if }j\\text{ is odd}\\\\1,&\\text{if }j\\text{ is even}\\end{cases}', 0.8))).toBe('math');
    expect(chooseKind('', read('\\det K=\\text{the number of spanning trees of }G', 0.8))).toBe('math');
    expect(chooseKind('', read('\\sum|M_{g}^{\\text{viol}}|^{2}=\\sum_{\\text{perm}}\\frac{1}{S}', 0.8))).toBe('math');
  });

  it('chooses: wordy → text; nothing read as text → maths; else structure with a sure maths read, or maths characters in the text read', () => {
    expect(chooseKind('The quick brown fox', read('x^{2}', 0.99))).toBe('text');
    expect(chooseKind('', read('\\sum', 0.9))).toBe('math');
    expect(chooseKind('', read('\\Pi^{x}', 0.02))).toBe('text'); // ink neither model reads surely
    expect(chooseKind('', read('', 0))).toBe('text');
    expect(chooseKind('u x² + y² = b', read('x^{2}+y^{2}=\\frac{a}{b}', 0.93))).toBe('math');
    expect(chooseKind('α² + b² = c2', read('a^{2}+\\iota^{2}=P', 0.4))).toBe('math'); // weak maths read, but the text model saw maths too
    expect(chooseKind('ABC 123', read('ABC123', 0.9))).toBe('text'); // no structure
    expect(chooseKind('x y z', read('x^{y}z', 0.05))).toBe('text'); // structure, but an unsure read (calibrated scale) and no maths characters
  });

  it('lets a sure maths read outweigh one word, never two, nor a word the maths parser read as text', () => {
    expect(isWordy('8 a arn 1-r n=0')).toBe(false); // a lone letter is no word: the ink of a r^n
    expect(chooseKind('In', read('I_{n}', 0.9))).toBe('math');
    expect(chooseKind('x2 cdm 2', read('\\int xdx=\\frac{x^{2}}{2}+C', 0.96))).toBe('math');
    expect(chooseKind('In', read('I_{n}', 0.6))).toBe('text');
    expect(chooseKind('careful', read('\\text{care}^{f}\\text{ul}', 0.95))).toBe('text');
    expect(chooseKind('Let us', read('L_{e}t^{us}', 0.95))).toBe('text');
  });

  it('weighs words as print sets them against the maths read: capitals, footnote marks, URLs, printed LaTeX', () => {
    expect(chooseKind('5. REFERENCE FORMATTING', read('5.\\|\\text{REFE}|\\text{RENCE}', 0.21))).toBe('text');
    expect(chooseKind('R. J. HANISCH5', read('R.J.H\\text{ANISCH}^{5}', 0.69))).toBe('text');
    // Capitals joined by a hyphen are a word too (a small-capital heading of a scanned paper).
    expect(chooseKind('III. CROSS-REFERENCING', read('\\|\\|\\|.C|\\text{ROSS}-|R\\mathbb{E}F\\mathbb{E}|R\\mathbb{E}', 0.26))).toBe('text');
    expect(chooseKind('January 4, 2021, URL https://ctan.org/pkg/newtx.', read('\\text{January}4,2021', 0.68))).toBe('text');
    expect(chooseKind('ldocumentclass [option1,option2]{assignment}', read('|docwe]atc]Lass[o_{P}t', 0.75))).toBe('text'); // prose beyond doubt
    // Words in capitals only weigh against an unsure read: the points of a figure are capitals too.
    expect(chooseKind('AABC ≅ ADEF', read('\\triangle ABC\\cong\\triangle DEF', 0.9))).toBe('math');
    expect(chooseKind('AB = CD', read('AB=CD', 0.9))).toBe('math');
    // …and a read holding a run of eight letters is words with their spaces lost, never sure.
    expect(chooseKind('6 CHAPTER 1. SOME EASY USAGES OF CROSSREFTOOLS', read('6CHAPTER_{=}1.SOMEEASYUSAGESOFCROSSREFTOOLS', 0.77))).toBe('text');
    expect([isWordyInPrint('CH,CHOH'), isWordyInPrint('ABCD'), isWordyInPrint('XIV'), isWordyInPrint("1Current markup's preamble.")]).toEqual([
      false,
      false,
      false,
      true,
    ]);
    // Never split at `=`: the text reads of a_{ij}=a_{ji} and \\int u\\,dv=uv-\\int v\\,du.
    expect([isWordyInPrint('dij=dji'), isWordyInPrint('udu=uv vdu')]).toEqual([false, false]);
  });

  it('keeps a line of code as text, even with its spaces dropped, unless its text read holds maths characters', () => {
    expect(chooseKind('import sys', read('\text{im}p^{o}rt sys', 0.7))).toBe('text');
    expect(chooseKind('while(k):', read('w^{h}\text{il}e(k):', 0.7))).toBe('text');
    expect(chooseKind('return7*k*k', read('\text{ret}=n7*k*k', 0.7))).toBe('text'); // `return 7 * k * k` with its spaces lost
    expect(chooseKind('int main()', read('\int m_{a}in()', 0.7))).toBe('text');
    expect(chooseKind('var(X)=E[X2]-μ2', read('\operatorname{var}(X)=E[X^{2}]-\mu^{2}', 0.7))).toBe('math'); // a formula led by a keyword's letters
    expect([ledByKeyword('return7*k*k'), ledByKeyword('for_each(x)'), ledByKeyword('format(k)'), ledByKeyword('interval')]).toEqual([true, true, false, false]);
  });

  it('keeps an unsure maths read when the text read is the same letters with its scripts lost, never for prose', () => {
    expect(chooseKind('HO', read('H_{2}O', 0.05))).toBe('math');
    expect(chooseKind('KMnO,', read('\\text{KMnO}_4', 0.05))).toBe('math'); // a lowered digit read as a comma
    expect(chooseKind('CH,CHOH', read('\\text{CH}_3\\text{CH}_2\\text{OH}', 0.05))).toBe('math');
    expect(chooseKind('Hello, world', read('\\text{Hello}_{1}\\text{world}', 0.05))).toBe('text'); // prose stays text
    expect(chooseKind('In', read('I_{n}', 0.05))).toBe('text'); // the text read holds the script's letter: nothing lost
    expect(scriptsLost('xyz', 'x^{y}z')).toBe(false);
    expect(scriptsLost('HO', '\\frac{H}{O}')).toBe(false); // more than letters and scripts
    expect(scriptsLost('HO', 'HO')).toBe(false); // no script to lose
  });

  it('reads a chemical formula without scripts as maths when both reads spell element symbols, never a word or an acronym', () => {
    expect(chooseKind('NaCI', read('\\text{NaCl}', 0.9))).toBe('math'); // the text model's capital I for the l of Cl
    expect(chooseKind('HCl', read('\\mathrm{HCl}', 0.9))).toBe('math');
    expect(chooseKind('NaCl', read('\\text{NaCl}', 0.05))).toBe('text'); // an unsure maths read
    expect(chooseKind('GitHub', read('\\text{GitHub}', 0.9))).toBe('text'); // not element symbols
    expect(chooseKind('CNN', read('\\text{CNN}', 0.9))).toBe('text'); // an acronym
    expect([chemicalFormula('KMnO4'), chemicalFormula('Hello'), chemicalFormula('CO'), chemicalFormula('NaOH')]).toEqual([true, false, false, true]);
  });
});
