import type { OcrWord, PageLine } from '../model.js';

/**
 * Code in an image (4.2 output rule 2): a run of two or more text lines set in a monospaced font,
 * at least one of which reads like code. Monospace is measured on the text model's word boxes:
 * in a fixed-pitch font a word's width is its cells times one pitch (plus the constant the CTC
 * boxes add), so a straight line through (cells, width) fits every word of the run closely; in a
 * proportional font `ill` and `mmm` are far apart. A word's cells are its characters, plus the
 * one-cell spaces the text model dropped inside it (`for(int` for `for (int`, read so by the int8
 * recogniser): those can only sit where code puts spaces (droppedSpaceSites), and the fit gives
 * each word the whole number of them its width asks for. Code reads like code when a line
 * ends in `;`, `{`, `}` or `:` after a keyword, starts with a common keyword, or holds `==`, `!=`,
 * `+=`, `->`, `::`, `()`, `#include`. A keyword counts when no letter follows it: the text model
 * often drops the one-cell spaces of fixed-pitch text (`return 3 * r` reads `return3*r`).
 */

/** The fit's residual, in pitches, under which a run of words is taken as monospaced. */
export const MONOSPACE_RESIDUAL = 0.2;
/** Words (of two characters or more) a run needs before its font is judged. */
const MIN_WORDS = 4;

const CODE_KEYWORD =
  /^\s*(?:def|class|return|for|while|if|elif|else|import|from|int|void|function|var|let|const|print|public|private|static|fn|struct|#include|#define)(?![A-Za-z])/;
const CODE_SYNTAX = /[;{}]\s*$|==|!=|\+=|-=|->|::|\(\)|\+\+/;

/** A line that starts with a common programming keyword. */
export const ledByKeyword = (text: string) => CODE_KEYWORD.test(text);
export const readsLikeCode = (text: string) => ledByKeyword(text) || CODE_SYNTAX.test(text);

const OPERATOR = /[=<>+\-*/%&|^!]/;
const OPERAND = /[\p{L}\p{N}_)\]}'"]/u;
const KEYWORD_BEFORE_PAREN = /(?:^|[^A-Za-z])(?:for|if|while|switch|return|catch)$/;
/** Operators code writes without spaces around them. */
const UNSPACED_OPERATOR = /^(?:\+\+|--|!|->|~)$/;

/**
 * The places inside a word (indices of the character a space would go before) where code puts a
 * one-cell space, most customary first: after `;` and `,`, before `{` and before the `(` of a
 * keyword; then around binary operators (`i<n`, `x=0`), never inside `i++` or `->`.
 */
export function droppedSpaceSites(text: string): number[] {
  const chars = [...text];
  const first: number[] = [];
  const then: number[] = [];
  for (let i = 1; i < chars.length; i++) {
    const [a, b] = [chars[i - 1]!, chars[i]!];
    if (((a === ';' || a === ',') && !/[;,)\]}]/.test(b)) || b === '{' || (b === '(' && KEYWORD_BEFORE_PAREN.test(chars.slice(0, i).join('')))) {
      first.push(i);
      continue;
    }
    const opAfter = OPERATOR.test(b) && OPERAND.test(a);
    const opBefore = OPERATOR.test(a) && OPERAND.test(b);
    if (!opAfter && !opBefore) continue;
    // The whole operator: the run of operator characters this place borders.
    let [from, to] = opAfter ? [i, i] : [i - 1, i - 1];
    while (from > 0 && OPERATOR.test(chars[from - 1]!)) from--;
    while (to < chars.length - 1 && OPERATOR.test(chars[to + 1]!)) to++;
    if (!UNSPACED_OPERATOR.test(chars.slice(from, to + 1).join(''))) then.push(i);
  }
  return [...first, ...then];
}

export interface MonospaceFit {
  /** Pixels per cell. */
  pitch: number;
  /** Width of a word of no cells: what the CTC boxes add. */
  offset: number;
}

interface FitPoint {
  chars: number;
  sites: number;
  width: number;
}

function lineThrough(pts: { n: number; w: number }[]): MonospaceFit | null {
  const mean = (f: (p: { n: number; w: number }) => number) => pts.reduce((s, p) => s + f(p), 0) / pts.length;
  const [mn, mw] = [mean((p) => p.n), mean((p) => p.w)];
  const varN = mean((p) => (p.n - mn) ** 2);
  if (varN === 0) return null; // every word the same length: nothing to tell the fonts apart
  const pitch = mean((p) => (p.n - mn) * (p.w - mw)) / varN;
  return pitch > 0 ? { pitch, offset: mw - pitch * mn } : null;
}

/** Cells of a word under `fit`: its characters and the dropped spaces its width asks for, as many as it has sites. */
function cellsOf(p: FitPoint, fit: MonospaceFit): number {
  return p.chars + Math.min(p.sites, Math.max(0, Math.round((p.width - fit.offset) / fit.pitch - p.chars)));
}

function fitPoints(words: OcrWord[]): FitPoint[] {
  return words.filter((w) => [...w.text].length >= 2).map((w) => ({ chars: [...w.text].length, sites: droppedSpaceSites(w.text).length, width: w.box.width }));
}

/** The fixed-pitch font's pitch and offset when the words are monospaced, else null. */
export function monospaceFit(words: OcrWord[]): MonospaceFit | null {
  const pts = fitPoints(words);
  if (pts.length < MIN_WORDS) return null;
  // First through the words that cannot hide a space, when there are enough of them; then every
  // word with the spaces its width asks for.
  const plain = pts.filter((p) => !p.sites);
  let fit =
    lineThrough((plain.length >= MIN_WORDS ? plain : pts).map((p) => ({ n: p.chars, w: p.width }))) ??
    lineThrough(pts.map((p) => ({ n: p.chars, w: p.width })));
  for (let pass = 0; pass < 2 && fit; pass++) fit = lineThrough(pts.map((p) => ({ n: cellsOf(p, fit!), w: p.width })));
  if (!fit) return null;
  const residual = Math.sqrt(pts.reduce((s, p) => s + (p.width - (fit!.pitch * cellsOf(p, fit!) + fit!.offset)) ** 2, 0) / pts.length);
  return residual / fit.pitch < MONOSPACE_RESIDUAL ? fit : null;
}

/**
 * A code line's words with the spaces the text model dropped put back: a word whose width spans
 * more cells than it has characters is split at its most customary sites (droppedSpaceSites).
 */
export function respacedWords(words: OcrWord[], fit: MonospaceFit): OcrWord[] {
  return words.flatMap((w) => {
    const chars = [...w.text];
    const sites = droppedSpaceSites(w.text);
    const missing = cellsOf({ chars: chars.length, sites: sites.length, width: w.box.width }, fit) - chars.length;
    if (missing <= 0) return [w];
    const cuts = sites.slice(0, missing).sort((a, b) => a - b);
    const parts: OcrWord[] = [];
    let from = 0;
    for (const cut of [...cuts, chars.length]) {
      // Cell of the part's first character: its index plus the spaces before it.
      const cell = from + parts.length;
      const x = w.box.x + cell * fit.pitch;
      parts.push({ ...w, text: chars.slice(from, cut).join(''), box: { ...w.box, x, width: Math.max(1, (cut - from) * fit.pitch + fit.offset) } });
      from = cut;
    }
    return parts;
  });
}

/**
 * Which lines belong to code blocks: runs of consecutive text lines whose words together are
 * monospaced (judged over the run, so short lines count) and one of which reads like code.
 * `pitch` is measured where words start, once the dropped spaces are put back (`fit`, respacedWords).
 */
export function codeRuns(lines: PageLine[]): { start: number; end: number; pitch: number; fit: MonospaceFit }[] {
  const runs: { start: number; end: number; pitch: number; fit: MonospaceFit }[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let fit: MonospaceFit | null = null;
    // Grow the run while the words so far stay monospaced.
    while (end < lines.length && lines[end]!.kind !== 'math') {
      const next = monospaceFit(lines.slice(start, end + 1).flatMap((l) => l.words ?? []));
      if (next === null && end > start + 1) break;
      if (next !== null) fit = next;
      end++;
    }
    if (fit !== null && end - start >= 2 && lines.slice(start, end).some((l) => readsLikeCode(l.text))) {
      const respaced = lines.slice(start, end).map((l) => (l.words ? { ...l, words: respacedWords(l.words, fit!) } : l));
      runs.push({ start, end, pitch: advancePitch(respaced) ?? fit.pitch, fit });
      start = end;
    } else start++;
  }
  return runs;
}

/**
 * The pitch from where words start: in a fixed-pitch font a word starts its line's character
 * offset (spaces included) times the pitch from the line's start. The median of the lines'
 * slopes; null without a line of two words. Steadier than the width fit for indentation, since
 * the text model's boxes widen every word by about the same amount.
 */
export function advancePitch(lines: PageLine[]): number | null {
  const slopes: number[] = [];
  for (const l of lines) {
    const words = l.words ?? [];
    if (words.length < 2) continue;
    let offset = 0;
    const pts = words.map((w) => {
      const p = { n: offset, x: w.box.x };
      offset += [...w.text].length + 1;
      return p;
    });
    const mn = pts.reduce((s, p) => s + p.n, 0) / pts.length;
    const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
    const slope = pts.reduce((s, p) => s + (p.n - mn) * (p.x - mx), 0) / pts.reduce((s, p) => s + (p.n - mn) ** 2, 0);
    if (slope > 0) slopes.push(slope);
  }
  slopes.sort((a, b) => a - b);
  return slopes.length ? slopes[Math.floor(slopes.length / 2)]! : null;
}

/** A code line with its indentation: the columns from the block's left edge, in pitches; its dropped spaces put back (respacedWords). */
export function codeLineText(line: PageLine, left: number, pitch: number, fit: MonospaceFit | undefined, upright: (l: PageLine) => PageLine['box']): string {
  const indent = Math.max(0, Math.round((upright(line).x - left) / pitch));
  const words = line.words && fit ? respacedWords(line.words, fit) : line.words;
  return ' '.repeat(indent) + (words?.length ? words.map((w) => w.text).join(' ') : line.text);
}
