/**
 * Handwritten look-alikes weighted by how often each occurs in real maths. A hand draws a `1` like
 * `\iota`, `l`, `L`, `I` or `[`, a `0` like `O` or `o`, an `x` like `\chi`; the handwriting
 * classifiers (pen strokes and pictures of ink) are trained on equally many drawings of every
 * class, so their probabilities say nothing of how rare the letter is. Each look-alike is weighted
 * by its count over its common twin's in math-mode tokens of TeX Live's documentation sources
 * (models/training/maths-symbol-frequency.py: 27,059 tokens of 3,593 files, amsmath's held-out
 * documents left out), floored at LOOKALIKE_FLOOR so a letter still wins where its shape is clearly
 * a letter.
 */
const MATHS_FREQUENCY: Readonly<Record<string, number>> = {
  '1': 1278,
  l: 133,
  L: 44,
  I: 72,
  '[': 246,
  '\\iota': 0,
  '0': 1445,
  O: 24,
  o: 274,
  x: 976,
  '\\chi': 7,
  '\\propto': 3,
  c: 309,
  C: 83,
  s: 225,
  S: 136,
  u: 228,
  U: 16,
  v: 61,
  V: 35,
  w: 41,
  W: 11,
  X: 64,
  z: 84,
  Z: 33,
  '2': 1717,
  '\\alpha': 85,
  '>': 37,
  '\\supset': 0,
  '\\pi': 79,
  '\\Pi': 6,
  '\\theta': 35,
  '\\Theta': 4,
  '\\phi': 15,
  '\\Phi': 8,
};
const LOOKS_LIKE: Readonly<Record<string, string>> = { l: '1', L: '1', I: '1', '[': '1', '\\iota': '1', O: '0', o: '0', '\\chi': 'x' };
const LOOKALIKE_FLOOR = 0.05;

const weighed = (looksLike: Readonly<Record<string, string>>): Record<string, number> =>
  Object.fromEntries(Object.entries(looksLike).map(([c, common]) => [c, Math.max(LOOKALIKE_FLOOR, MATHS_FREQUENCY[c]! / MATHS_FREQUENCY[common]!)]));

/** The weight of each handwritten look-alike against its common twin (classes not listed weigh 1). */
export const HANDWRITTEN_LOOKALIKES: Readonly<Record<string, number>> = weighed(LOOKS_LIKE);

/**
 * Rarer signs a hand draws like a Greek letter or a relation: `\\propto` like `\\alpha`, `\\supset`
 * like `>`, the capitals `\\Pi`, `\\Theta`, `\\Phi` like their small letters. Each weighs its count
 * over its twin's (floored as above); a classifier multiplies it into whatever prior the twin has.
 */
const RARER_TWINS: Readonly<Record<string, string>> = { '\\propto': '\\alpha', '\\supset': '>', '\\Pi': '\\pi', '\\Theta': '\\theta', '\\Phi': '\\phi' };
export const RARER_TWIN_WEIGHTS: Readonly<Record<string, { twin: string; weight: number }>> = Object.fromEntries(
  Object.entries(weighed(RARER_TWINS)).map(([c, weight]) => [c, { twin: RARER_TWINS[c], weight }]),
);

/**
 * Look-alikes that only a picture of ink confuses: without the pen's order and direction, an `x`
 * written as two arcs back to back, `)(`, is the ink of `\propto` (the strokes classifier sees the
 * two arcs drawn apart and keeps them apart).
 */
export const PICTURE_LOOKALIKES: Readonly<Record<string, number>> = { ...HANDWRITTEN_LOOKALIKES, ...weighed({ '\\propto': 'x' }) };

/**
 * Shapes a hand draws alike whatever the symbol's size: small and capital c s u v w x z, and a `2`
 * drawn like a `z`. Each member is weighted by its count over the commonest member's: what is left
 * to decide by when nothing on the line tells the symbol's size (a symbol alone, or alone under a
 * radical).
 */
const SIZE_TWINS: ReadonlyArray<readonly string[]> = [...'csuvwx'].map((c) => [c, c.toUpperCase()]).concat([['2', 'z', 'Z']]);
export const TWIN_WEIGHTS: Readonly<Record<string, Readonly<Record<string, number>>>> = Object.fromEntries(
  SIZE_TWINS.flatMap((twins) => {
    const most = Math.max(...twins.map((t) => MATHS_FREQUENCY[t]!));
    const weights = Object.fromEntries(twins.map((t) => [t, MATHS_FREQUENCY[t]! / most]));
    return twins.map((t) => [t, weights]);
  }),
);
