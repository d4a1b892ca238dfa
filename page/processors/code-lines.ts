import type { OcrWord, PageLine } from '../model.js';

/**
 * Code in an image (4.2 output rule 2): a run of two or more text lines set in a monospaced font,
 * at least one of which reads like code. Monospace is measured on the text model's word boxes:
 * in a fixed-pitch font a word's width is its characters times one pitch (plus the constant the
 * CTC boxes add), so a straight line through (characters, width) fits every word of the run
 * closely; in a proportional font `ill` and `mmm` are far apart. Code reads like code when a line
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

/** The font's pitch in pixels when the words are monospaced, else null. */
export function monospacePitch(words: OcrWord[]): number | null {
  const pts = words.filter((w) => [...w.text].length >= 2).map((w) => ({ n: [...w.text].length, w: w.box.width }));
  if (pts.length < MIN_WORDS) return null;
  const mean = (f: (p: { n: number; w: number }) => number) => pts.reduce((s, p) => s + f(p), 0) / pts.length;
  const [mn, mw] = [mean((p) => p.n), mean((p) => p.w)];
  const varN = mean((p) => (p.n - mn) ** 2);
  if (varN === 0) return null; // every word the same length: nothing to tell the fonts apart
  const pitch = mean((p) => (p.n - mn) * (p.w - mw)) / varN;
  if (pitch <= 0) return null;
  const c = mw - pitch * mn;
  const residual = Math.sqrt(mean((p) => (p.w - (pitch * p.n + c)) ** 2));
  return residual / pitch < MONOSPACE_RESIDUAL ? pitch : null;
}

/**
 * Which lines belong to code blocks: runs of consecutive text lines whose words together are
 * monospaced (judged over the run, so short lines count) and one of which reads like code.
 */
export function codeRuns(lines: PageLine[]): { start: number; end: number; pitch: number }[] {
  const runs: { start: number; end: number; pitch: number }[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let pitch: number | null = null;
    // Grow the run while the words so far stay monospaced.
    while (end < lines.length && lines[end]!.kind !== 'math') {
      const next = monospacePitch(lines.slice(start, end + 1).flatMap((l) => l.words ?? []));
      if (next === null && end > start + 1) break;
      if (next !== null) pitch = next;
      end++;
    }
    if (pitch !== null && end - start >= 2 && lines.slice(start, end).some((l) => readsLikeCode(l.text))) {
      runs.push({ start, end, pitch: advancePitch(lines.slice(start, end)) ?? pitch });
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

/** A code line with its indentation: the columns from the block's left edge, in pitches. */
export function codeLineText(line: PageLine, left: number, pitch: number, upright: (l: PageLine) => PageLine['box']): string {
  const indent = Math.max(0, Math.round((upright(line).x - left) / pitch));
  return ' '.repeat(indent) + (line.words?.length ? line.words.map((w) => w.text).join(' ') : line.text);
}
