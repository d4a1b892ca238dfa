import { calibratedConfidence } from '../engine/math/image/calibration.js';
import type { MathRead } from '../../page/model.js';
import { ledByKeyword } from '../../page/processors/code-lines.js';
import { countWords, isProseInPrint, isWordyInPrint } from '../../page/processors/words.js';

/**
 * Is a line of an image maths or text? Two recognisers read it and each leaves evidence:
 * - the text read: words. Prose holds words (runs of three or more letters that are not a maths
 *   function name, and the common two-letter words); a display formula almost never holds two.
 *   The text model's own confidence does not separate the two: on a formula it reads the pieces it
 *   can (`f(x) dx =`) with 0.9 and more, and simply misses the rest (∑, ∫, bars, limits).
 * - the maths read: structure. A formula's parse holds scripts, fractions, radicals, big operators
 *   or relations; prose forced through the maths parser comes out as long runs of letters and
 *   symbols with a low confidence per symbol.
 * Rules (measured on rendered pages, see inference/line-kind.test.ts and test/integration/v3-text-math.test.ts):
 * 0. before all, a line whose maths read spells prose is text: SPELLED_PROSE_WORDS words of prose in
 *    its upright text and no relation (`{}^{39}E.\text{Beutler},\text{in}…\text{edited}\text{by E}.`). The text model
 *    reads small print (references, footnotes) poorly (`39E.euter,inWilamsHematolgVol.2ditdbEer,`),
 *    which leaves the maths read to judge the line; a display's upright words are few (`\text{if}`,
 *    `\text{otherwise}`, a unit);
 * 1. a line whose text read is wordy (page/processors/words.ts: two words, or words covering half its characters) is text,
 *    unless it holds a single word and its maths read is sure (sureMath). Words as print sets them
 *    count (words.ts countPrintedWords: in capitals, with a footnote mark or an apostrophe, run
 *    together by a URL's or a LaTeX command's punctuation): scanned headings, author blocks,
 *    references and printed LaTeX read as maths with a low per-symbol confidence
 *    (`5. REFERENCE FORMATTING` at 0.21) that passed MIN_MATH_RATE. Words in capitals are never
 *    prose beyond doubt (`AB = CD`): a sure maths read outweighs them;
 * 2. otherwise, a line the text model read nothing of is maths if the maths parse found symbols
 *    with a per-symbol confidence of at least MIN_MATH_RATE (ink neither model reads surely — a
 *    line cut by the image's edge, a speck, a rule — is left out, as the text model leaves it);
 * 3. a line of code is text: its text read starts with a programming keyword (`def`, `return`,
 *    `print`, ... code-lines.ts) and holds no maths characters. The maths parser turns code into
 *    symbol soup (`def area(r):` → `\text{de}^{f}ax\text{ea}(r):`) whose per-symbol confidence can
 *    still pass MIN_MATH_RATE. Runs of monospaced code are kept as text before this (math-page.ts);
 *    this takes a code line whose font could not be judged (too few words, spaces the text model
 *    dropped);
 * 4. otherwise it is maths when the maths parse has structure and either its per-symbol confidence
 *    is at least MIN_MATH_RATE or the text read itself holds maths characters (operators,
 *    superscript digits, Greek letters: the text model saw maths too) or the text read is the maths
 *    read with its scripts lost (scriptsLost: `HO` or `H,O` for `H_{2}O`, `KMnO,` for
 *    `\text{KMnO}_4` — the maths read holds what the text read dropped); text when not;
 * 5. a chemical formula without scripts (`NaCl`, `HCl`) has no structure, but both reads spell it
 *    as element symbols run together (chemicalFormula: no word, no acronym): it is maths when the
 *    maths read is its upright letters alone, read with at least MIN_MATH_RATE.
 */

/**
 * Per-symbol (geometric mean) confidence below which a maths read is not trusted over a text read:
 * a classifier probability of 0.5, on the engine's calibrated scale (image/calibration.ts).
 */
export const MIN_MATH_RATE = calibratedConfidence(0.5);

/** Per-symbol confidence at which a maths parse with structure outweighs a single word of text read. */
export const SURE_MATH_RATE = calibratedConfidence(0.85);

const WORD_RUN = /[A-Za-z]{8,}/;

/**
 * A maths read that outweighs one word of text: structure, read surely symbol by symbol, and no
 * word in it: no word of upright text (the maths parser found a word too: `\text{care}^{f}\text{ul}`)
 * nor a run of eight letters (WORD_RUN), which is words with their spaces lost (a running head in
 * capitals read `6CHAPTER_{=}1.SOMEEASYUSAGESOFCROSSREFTOOLS` at 0.77 a symbol), never a product
 * of variables.
 */
export const sureMath = (math: MathRead) =>
  hasMathStructure(math.latex) &&
  math.confidenceRate >= SURE_MATH_RATE &&
  !/\\text\{[A-Za-z]{3,}/.test(math.latex) &&
  !WORD_RUN.test(math.latex.replace(/\\[A-Za-z]+/g, ' '));

/**
 * Scripts, fractions, radicals, big operators, arrays and matrices, relations or binary operators
 * between operands, accents and angle or floor delimiters: what no line of text holds (`u\perp v`,
 * `\langle\psi|\hat{A}|\psi\rangle`).
 */
export function hasMathStructure(latex: string): boolean {
  return /[\^_&]|\\begin\{|\\(?:frac|sqrt|sum|prod|int|oint|lim|infty|partial|nabla|leq|geq|neq|approx|equiv|pm|times|cdot|div|rightarrow|to|in|subset|cup|cap|forall|exists|perp|parallel|propto|sim|simeq|cong|ll|gg|subseteq|supset|supseteq|notin|mapsto|leftarrow|leftrightarrow|Rightarrow|Leftarrow|Leftrightarrow|longrightarrow|longleftarrow|longleftrightarrow|Longrightarrow|Longleftarrow|Longleftrightarrow|longmapsto|langle|rangle|lfloor|rfloor|lceil|rceil|hat|vec|bar|tilde|dot|ddot|overline|widehat)(?![A-Za-z])|[=<>+]|\S-\S/.test(
    latex,
  );
}

/** A script's argument: one character, or a group of digits, letters, signs and primes. */
const SCRIPT = /^[_^](?:\{[A-Za-z0-9+\-−']+\}|[A-Za-z0-9+\-])/;
const UPRIGHT = /^\\(?:text|mathrm)\{([A-Za-z0-9() ]*)\}/;

/**
 * Whether a text read is the maths read with each script dropped or turned into one mark of
 * punctuation (a lowered digit read as `,` or `.`): the same letters, less what the scripts say.
 * A maths read of anything beyond plain or upright characters and scripts never matches.
 */
export function scriptsLost(text: string, latex: string): boolean {
  let pattern = '';
  let scripts = 0;
  for (let rest = latex.replace(/\s+/g, ''); rest;) {
    const script = SCRIPT.exec(rest);
    const upright = UPRIGHT.exec(rest);
    if (script) {
      pattern += "[,.']?";
      scripts++;
      rest = rest.slice(script[0].length);
    } else if (upright) {
      pattern += upright[1]!.replace(/\s+/g, '').replace(/[()]/g, '\\$&');
      rest = rest.slice(upright[0].length);
    } else if (/^[A-Za-z0-9()]/.test(rest)) {
      pattern += rest[0] === '(' || rest[0] === ')' ? `\\${rest[0]}` : rest[0];
      rest = rest.slice(1);
    } else return false;
  }
  const bare = text.replace(/\s+/g, '');
  return scripts > 0 && /[A-Za-z]/.test(bare) && new RegExp(`^${pattern}$`).test(bare);
}

/** Element symbols, two letters before one so a regular expression tries `Cl` before `C`. */
const ELEMENTS = [
  ...'He Li Be Ne Na Mg Al Si Cl Ar Ca Sc Ti Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te Xe'.split(' '),
  ...'Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa Np Pu Am Cm'.split(' '),
  ...'H B C N O F P S K V Y I W U'.split(' '),
];
const ELEMENT_RUN = new RegExp(`^(?:(?:${ELEMENTS.join('|')})\\d*){2,}$`);

/**
 * Letters (and counts) that spell two element symbols or more run together, with two capitals or
 * more and not all capitals: `NaCl`, `HCl`, `KMnO4`, never a word of prose (one capital at most)
 * nor an acronym (`USA`, `CNN`).
 */
export function chemicalFormula(letters: string): boolean {
  const capitals = letters.match(/[A-Z]/g)?.length ?? 0;
  return ELEMENT_RUN.test(letters) && capitals >= 2 && /[a-z]/.test(letters);
}

/** A maths read of upright letters and digits alone (`\text{NaCl}`), as those letters; else null. */
const uprightLetters = (latex: string): string | null => /^\\(?:text|mathrm)\{([A-Za-z0-9]+)\}$/.exec(latex.replace(/\s+/g, ''))?.[1] ?? null;

const MATH_CHARS = /[=+<>^±×÷∑∏∫√≤≥≠≈∞∂∇²³¹⁰-⁹₀-₉α-ωΑ-Ω]/;

/** Words of prose in a maths read's upright text at which the read is prose (rule 0). */
export const SPELLED_PROSE_WORDS = 4;

const UPRIGHT_TEXT = /\\text\{([^{}]*)\}/g;
const RELATION = /[=<>]|\\(?:leq?|geq?|neq?|equiv|approx|sim|simeq|cong|propto|to|rightarrow|Rightarrow|Leftrightarrow|iff|in|subset|subseteq)(?![A-Za-z])/;

/**
 * Whether a maths read spells SPELLED_PROSE_WORDS words of prose in its `\text{…}` and sets no
 * relation between them (rule 0): `\det K=\text{the number of spanning trees of }G` is a display.
 */
export function spellsProse(latex: string): boolean {
  const upright = [...latex.matchAll(UPRIGHT_TEXT)].map((m) => m[1]).join(' ');
  return countWords(upright.replace(/[.,;:()]/g, ' ')).words >= SPELLED_PROSE_WORDS && !RELATION.test(latex.replace(UPRIGHT_TEXT, ' '));
}

/** The rules above, for one line: its text read (possibly '') and its maths read. 'text' with an empty read drops the line. */
export function chooseKind(text: string, math: MathRead | undefined): 'text' | 'math' {
  if (!math || !math.latex || spellsProse(math.latex)) return 'text';
  if (isWordyInPrint(text)) return !isProseInPrint(text) && sureMath(math) ? 'math' : 'text';
  if (!text.trim()) return math.confidenceRate >= MIN_MATH_RATE ? 'math' : 'text';
  if (ledByKeyword(text) && !MATH_CHARS.test(text)) return 'text';
  const letters = uprightLetters(math.latex);
  if (letters && chemicalFormula(letters) && chemicalFormula(text.replace(/\s+/g, '')) && math.confidenceRate >= MIN_MATH_RATE) return 'math';
  return hasMathStructure(math.latex) && (math.confidenceRate >= MIN_MATH_RATE || MATH_CHARS.test(text) || scriptsLost(text, math.latex)) ? 'math' : 'text';
}
