/**
 * How well an OCR reading matches a page's text layer. Both sides are folded the same way first:
 * ligatures (ﬁ → fi), typographic quotes and dashes to ASCII, whitespace collapsed; fullwidth
 * forms are NOT folded, so a `（` read for `(` counts as an error.
 */

const FOLDS: [RegExp, string][] = [
  [/ﬀ/g, 'ff'],
  [/ﬁ/g, 'fi'],
  [/ﬂ/g, 'fl'],
  [/ﬃ/g, 'ffi'],
  [/ﬄ/g, 'ffl'],
  [/[‘’‚′]/g, "'"],
  [/[“”„″]/g, '"'],
  [/[‐‑‒–—−]/g, '-'],
  [/\s+/g, ' '],
];

export function foldText(text: string): string {
  return FOLDS.reduce((s, [re, to]) => s.replace(re, to), text).trim();
}

function levenshtein(a: string, b: string): number {
  let prev = new Uint32Array(b.length + 1).map((_, j) => j);
  let row = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
    [prev, row] = [row, prev];
  }
  return prev[b.length]!;
}

/** Character error rate: edits from the folded truth to the folded reading, over the truth's length. */
export function characterErrorRate(truth: string, got: string): number {
  const t = foldText(truth);
  return t.length ? levenshtein(t, foldText(got)) / t.length : 0;
}

/** Share of the truth's words (as a multiset, order ignored) that the reading holds exactly. */
export function wordRecall(truth: string, got: string): number {
  const words = (s: string) => foldText(s).split(' ').filter(Boolean);
  const have = new Map<string, number>();
  for (const w of words(got)) have.set(w, (have.get(w) ?? 0) + 1);
  const want = words(truth);
  let found = 0;
  for (const w of want) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return want.length ? found / want.length : 1;
}

/** Fullwidth ASCII forms, the ideographic space and CJK punctuation in `text`. */
export function fullwidthCount(text: string): number {
  return text.match(/[\uFF01-\uFF5E\u3000-\u303F]/gu)?.length ?? 0;
}

/** Han, kana and Hangul characters in `text`. */
export function cjkCount(text: string): number {
  return text.match(/[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/gu)?.length ?? 0;
}
