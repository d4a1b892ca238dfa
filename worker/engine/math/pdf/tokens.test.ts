import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfMath, symbolsInRegion } from './index.js';
import { compileLatex, openTestPdf, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/**
 * Every symbol of the TeX and AMS maths fonts a formula is likely to use, typeset by pdflatex one
 * a page, must come out as the one token a person would type: pdf.js's Unicode for these glyphs
 * is often not the command (µ, ∆, ◦, ⇌, raw character codes for extension-font glyphs), and
 * several are drawn from more than one glyph.
 */

/** Typed → the token expected, when the command is not its own token (synonyms and look-alikes). */
const SAME_GLYPH: Array<[string, string]> = [
  ['\\to', '\\rightarrow'],
  ['\\gets', '\\leftarrow'],
  ['\\bot', '\\perp'],
  ['\\mid', '|'],
  ['\\parallel', '\\|'],
  ['\\ast', '*'],
  ['\\backslash', '\\setminus'],
  ['\\iff', '\\Longleftrightarrow'],
  ['\\implies', '\\Longrightarrow'],
  ['\\vDash', '\\models'],
  ['\\leadsto', '\\rightsquigarrow'],
  ['\\varnothing', '\\emptyset'],
  ['\\lvert', '|'],
  ['\\rVert', '\\|'],
];

const ONE_GLYPH = (
  '\\alpha \\beta \\gamma \\delta \\epsilon \\varepsilon \\zeta \\eta \\theta \\vartheta \\iota \\kappa \\lambda \\mu \\nu \\xi ' +
  '\\pi \\varpi \\rho \\varrho \\sigma \\varsigma \\tau \\upsilon \\phi \\varphi \\chi \\psi \\omega \\Gamma \\Delta \\Theta ' +
  '\\Lambda \\Xi \\Pi \\Sigma \\Upsilon \\Phi \\Psi \\Omega \\partial \\ell \\imath \\jmath \\wp \\hbar \\Re \\Im \\aleph \\infty ' +
  '\\nabla \\forall \\exists \\nexists \\neg \\emptyset \\prime \\top \\perp \\angle \\triangle \\flat \\sharp \\natural ' +
  '\\clubsuit \\pm \\mp \\times \\div \\cdot \\star \\circ \\bullet \\cap \\cup \\uplus \\sqcap \\sqcup \\vee \\wedge \\setminus ' +
  '\\wr \\diamond \\triangleleft \\triangleright \\oplus \\ominus \\otimes \\oslash \\odot \\dagger \\ddagger \\amalg \\leq \\geq ' +
  '\\equiv \\sim \\simeq \\approx \\propto \\subset \\supset \\subseteq \\supseteq \\sqsubseteq \\sqsupseteq \\in \\ni \\prec ' +
  '\\succ \\preceq \\succeq \\ll \\gg \\asymp \\smile \\frown \\vdash \\dashv \\leftarrow \\rightarrow \\Leftarrow \\Rightarrow ' +
  '\\leftrightarrow \\Leftrightarrow \\uparrow \\downarrow \\Uparrow \\Downarrow \\nearrow \\searrow \\swarrow \\nwarrow ' +
  '\\leftharpoonup \\rightharpoonup \\rightleftharpoons \\twoheadrightarrow \\nrightarrow \\leqslant \\geqslant \\lesssim \\gtrsim ' +
  '\\nleq \\ngeq \\nless \\ngtr \\nsubseteq \\subsetneq \\nmid \\ncong \\therefore \\because \\square \\blacksquare \\triangleq ' +
  '\\ltimes \\rtimes \\boxplus \\boxtimes \\checkmark \\langle \\rangle \\lfloor \\rfloor \\lceil \\rceil \\{ \\} | \\| ' +
  '\\sum \\prod \\coprod \\int \\oint \\bigcup \\bigcap \\bigoplus \\bigotimes \\bigvee \\bigwedge'
).split(' ');

/** Symbols TeX draws from two or three glyphs. */
const COMPOSED = (
  '\\neq \\notin \\cong \\doteq \\models \\bowtie \\mapsto \\longmapsto \\hookrightarrow \\hookleftarrow \\longrightarrow ' +
  '\\longleftarrow \\Longrightarrow \\Longleftarrow \\longleftrightarrow \\Longleftrightarrow'
).split(' ');

/** Tall delimiters whose extension-font codes are whitespace characters (9–13, 32) or whose pieces tell them apart. */
const TALL: Array<[string, string]> = [
  ['\\Bigg(', '('],
  ['\\bigg|', '|'],
  ['\\Bigg\\|', '\\|'],
  ['\\Big\\langle', '\\langle'],
  ['\\bigg\\rangle', '\\rangle'],
  ['\\left|\\rule{0pt}{60pt}\\right.', '|'],
  ['\\left\\|\\rule{0pt}{60pt}\\right.', '\\|'],
  ['\\left\\lfloor\\rule{0pt}{60pt}\\right.', '\\lfloor'],
  ['\\left\\lceil\\rule{0pt}{60pt}\\right.', '\\lceil'],
  ['\\left.\\rule{0pt}{60pt}\\right\\rfloor', '\\rfloor'],
  ['\\left[\\rule{0pt}{60pt}\\right.', '['],
];

/** Neighbours that must stay apart (no ink overlap, no composite), and accents over several letters. */
const APART: Array<[string, string[]]> = [
  ['a-\\rightarrow b', ['a', '-', '\\rightarrow', 'b']],
  ['x=\\Rightarrow y', ['x', '=', '\\Rightarrow', 'y']],
  ['|x|=1', ['|', 'x', '|', '=', '1']],
  ['a/b', ['a', '/', 'b']],
  ['\\not\\equiv', ['\\not', '\\equiv']],
  // amssymb draws wide accents over several letters from MSBM, whose codes pdf.js hands back as ASCII.
  ['\\widehat{ABC}', ['\\widehat', 'A', 'B', 'C']],
  ['\\widetilde{ABC}', ['\\widetilde', 'A', 'B', 'C']],
];

const CASES: Array<[string, string[]]> = [
  ...ONE_GLYPH.map((c): [string, string[]] => [c, [c]]),
  ...SAME_GLYPH.map(([c, t]): [string, string[]] => [c, [t]]),
  ...COMPOSED.map((c): [string, string[]] => [c, [c]]),
  ...TALL.map(([c, t]): [string, string[]] => [c, [t]]),
  ...APART,
];

let pdf: LatexPdf;
let doc: PDFDocumentProxy;

beforeAll(async () => {
  pdf = await compileLatex(CASES.map(([c]) => `\\[ ${c} \\]`).join('\n\\newpage\n'));
  doc = await openTestPdf(pdf.path);
}, 60_000);

afterAll(async () => {
  await doc?.destroy();
  await pdf?.cleanup();
});

async function tokensOf(page: number): Promise<string[]> {
  const math = await readPdfMath(await doc.getPage(page));
  return symbolsInRegion(math, { x0: 0, y0: 0, x1: math.width, y1: math.height }).map((s) => s.latex);
}

describe('PDF glyphs → LaTeX tokens', () => {
  it.each(CASES.map(([c, t], i) => [c, t, i + 1] as const))('reads %s as %j', async (_command, tokens, page) => {
    // Order is the parser's business (a \not slash starts right of the relation it strikes).
    expect((await tokensOf(page)).sort()).toEqual([...tokens].sort());
  });
});
