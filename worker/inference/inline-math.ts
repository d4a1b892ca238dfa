import type { InkMask } from '../engine/math/image/binarise.js';
import type { Box } from '../engine/text/image.js';
import type { OcrWord } from '../engine/text/index.js';
import type { Band } from './bands.js';
import { hasMathStructure, MIN_MATH_RATE } from './line-kind.js';
import type { MathRead, Segment } from '../../page/model.js';

/**
 * Maths inside a line of prose. The text model reads the prose around an inline formula surely
 * and the formula itself poorly: it reads the operators and letters it knows (`x? + y? = z2`),
 * with low confidence on scripts, and skips what it has no characters for (a fraction, a radical's
 * contents) — that ink lies between the words it read. So a line's tokens are its words plus its
 * unread ink, and a token is maths evidence when it
 * - holds an operator, relation, Greek letter or other maths sign;
 * - is a letter with a script the model misread (`x2`, `x?`, `e-`) or a function of one (`f(x)`);
 * - is unread ink (nothing the text model emitted covers it);
 * - is a single letter or number next to such a token (an operand: `n + 1`), or a short token
 *   the model was unsure of (a glyph it has no character for, read as something else: λ as 入).
 * A run of evidence becomes a span; its ink is cut out with the line's rows and read by the
 * maths recogniser, and the reading is kept when its per-symbol confidence reaches MIN_MATH_RATE
 * and it has maths structure or a command (a lone Greek letter). Everything is in the upright image's pixels.
 */

/** Unread ink narrower than this share of the line's height is a speck or a broken glyph edge. */
const MIN_UNREAD_INK = 0.3;
/** A word box is widened by this share of the line height before ink is counted as unread. */
const WORD_SLACK = 0.15;

const SIGN = /[=+<>^±×÷·∑∏∫√∞∂∇≤≥≠≈≡∈∉⊂⊆∪∩→←⇒⇔∀∃α-ωΑ-Ω²³¹⁰-⁹₀-₉]/;
const SCRIPTED = /^(?:[A-Za-z][0-9?'*+-]|[A-Za-z]\([A-Za-z0-9,]+\))$/;
const OPERAND = /^(?:[A-Za-z]|\d+(?:\.\d+)?|[()[\]])$/;
/** A standalone operator or relation: the words beside it are its operands, even `a`. */
const LONE_SIGN = /^[=+<>±×÷·≤≥≠≈≡∈∉⊂⊆→⇒]$/;
/** A short token read with less confidence than this is an operand candidate whatever it reads as. */
const UNSURE = 0.75;
const KEEP_SHORT = /^(?:a|A|I)$/;
/** Trailing punctuation that belongs to the sentence, not the formula. */
const SENTENCE_PUNCT = /[.,;:]+$/;

interface Token {
  word?: OcrWord;
  x0: number;
  x1: number;
  evidence: boolean;
}

export type ReadSpan = (x0: number, x1: number) => Promise<MathRead>;

/**
 * The line as text and maths segments, or null when it holds no inline maths. `words` are in
 * upright pixels; `band` is the line's ink rows; `readSpan` reads the columns [x0, x1) of them.
 */
export async function inlineSegments(words: OcrWord[], band: Band, mask: InkMask, readSpan: ReadSpan): Promise<Segment[] | null> {
  const lineHeight = band.y1 - band.y0;
  const tokens = tokenize(words, unreadInk(words, band, mask, lineHeight));
  markOperands(tokens);
  const segments: Segment[] = [];
  let found = false;
  const text = (w: OcrWord) => {
    const last = segments.at(-1);
    if (last?.kind === 'text') last.words.push(w);
    else segments.push({ kind: 'text', words: [w] });
  };
  for (let i = 0; i < tokens.length;) {
    if (!tokens[i]!.evidence) {
      text(tokens[i++]!.word!);
      continue;
    }
    let j = i;
    while (j < tokens.length && tokens[j]!.evidence) j++;
    const run = tokens.slice(i, j);
    const trailing = run.at(-1)!.word?.text.match(SENTENCE_PUNCT)?.[0];
    // The cut reaches halfway to the neighbouring tokens: a word box's edge may fall inside a glyph.
    const x0 = i > 0 ? (tokens[i - 1]!.x1 + run[0]!.x0) / 2 : band.x0;
    const x1 = j < tokens.length ? (run.at(-1)!.x1 + tokens[j]!.x0) / 2 : band.x1;
    // Word boxes may overlap (a long word's box over the run): then there is no span of its own to read.
    const math = x1 - x0 >= 1 ? await readSpan(Math.floor(x0), Math.ceil(x1)) : undefined;
    if (math && isInlineMath(run, math)) {
      found = true;
      const latex = trailing && math.latex.endsWith(trailing) ? math.latex.slice(0, -trailing.length) : math.latex;
      segments.push({ kind: 'math', math: { ...math, latex }, box: { x: x0, y: band.y0, width: x1 - x0, height: lineHeight } });
      if (trailing) text({ ...run.at(-1)!.word!, text: trailing });
    } else {
      for (const t of run) if (t.word) text(t.word);
    }
    i = j;
  }
  return found ? segments : null;
}

/**
 * A span is maths when the recogniser read it surely and either found structure in a run holding
 * maths signs, or the run is only unread ink of two symbols or more.
 */
function isInlineMath(run: Token[], math: MathRead): boolean {
  if (!math.latex || math.confidenceRate < MIN_MATH_RATE) return false;
  if (run.every((t) => !t.word)) return math.symbolCount >= 2; // not a lone bullet or speck
  // A command (a Greek letter, \infty) is maths on its own in a line of prose.
  return run.some((t) => !t.word || SIGN.test(t.word.text) || SCRIPTED.test(t.word.text)) && (hasMathStructure(math.latex) || /\\[A-Za-z]/.test(math.latex));
}

function tokenize(words: OcrWord[], unread: [number, number][]): Token[] {
  const tokens: Token[] = words.map((word) => {
    const core = word.text.replace(SENTENCE_PUNCT, '');
    return { word, x0: word.box.x, x1: word.box.x + word.box.width, evidence: SIGN.test(core) || SCRIPTED.test(core) };
  });
  for (const [x0, x1] of unread) tokens.push({ x0, x1, evidence: true });
  return tokens.sort((a, b) => a.x0 - b.x0);
}

/**
 * Operands beside evidence become evidence, repeatedly (`n + 1`, `( a + b )`): single letters,
 * numbers, and short tokens read unsurely. The one-letter words a, A and I only beside a lone
 * operator or relation, or between evidence on both sides (`a ≠ b`, `x + a`).
 */
function markOperands(tokens: Token[]): void {
  const lone = (t: Token | undefined) => t?.word !== undefined && LONE_SIGN.test(t.word.text);
  for (let changed = true; changed;) {
    changed = false;
    tokens.forEach((t, i) => {
      const core = t.word?.text.replace(SENTENCE_PUNCT, '');
      if (t.evidence || core === undefined) return;
      const unsure = core.length <= 3 && t.word!.confidence < UNSURE;
      if (!OPERAND.test(core) && !unsure) return;
      const [prev, next] = [tokens[i - 1], tokens[i + 1]];
      const beside = KEEP_SHORT.test(core) ? lone(prev) || lone(next) || (prev?.evidence && next?.evidence) : prev?.evidence || next?.evidence;
      if (beside) changed = t.evidence = true;
    });
  }
}

/**
 * The mask without horizontal rules: runs of ink along a row at least `minLength` long (a table's
 * \hline, an underline), which would otherwise be unread ink beside every word they pass. An
 * inline fraction's bar is far shorter than a few line heights.
 */
export function withoutRules(mask: InkMask, minLength: number): InkMask {
  const data = mask.data.slice();
  for (let y = 0; y < mask.height; y++) {
    const row = y * mask.width;
    let start = -1;
    for (let x = 0; x <= mask.width; x++) {
      const ink = x < mask.width && mask.data[row + x] === 1;
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) {
        if (x - start >= minLength) data.fill(0, row + start, row + x);
        start = -1;
      }
    }
  }
  return { ...mask, data };
}

/** Column runs of ink in the band that no word covers, at least MIN_UNREAD_INK line heights wide. */
export function unreadInk(words: OcrWord[], band: Band, mask: InkMask, lineHeight: number): [number, number][] {
  const covered = new Uint8Array(mask.width);
  const slack = Math.round(WORD_SLACK * lineHeight);
  for (const w of words) covered.fill(1, Math.max(0, Math.floor(w.box.x) - slack), Math.min(mask.width, Math.ceil(w.box.x + w.box.width) + slack));
  const runs: [number, number][] = [];
  let start = -1;
  for (let x = band.x0; x <= band.x1; x++) {
    const ink = x < band.x1 && !covered[x] && columnHasInk(mask, x, band);
    if (ink && start < 0) start = x;
    if (!ink && start >= 0) {
      if (x - start >= MIN_UNREAD_INK * lineHeight) runs.push([start, x]);
      start = -1;
    }
  }
  return runs;
}

function columnHasInk(mask: InkMask, x: number, band: Band): boolean {
  for (let y = band.y0; y < band.y1; y++) if (mask.data[y * mask.width + x]) return true;
  return false;
}
