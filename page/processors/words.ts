/**
 * Words in a text read: the evidence that a line of an image is prose (worker/inference/line-kind.ts
 * weighs it against the maths read). Prose holds words (runs of three or more letters that are not
 * a maths function name, and the common two-letter words); a display formula almost never holds two.
 */

export const WORDY_MIN_WORDS = 2;
export const WORDY_CHAR_SHARE = 0.5;

/** Two-letter words of prose; a lone letter is as likely a variable (`a r^n`) and is no evidence either way. */
const SHORT_WORDS = new Set('an as at be by do he if in is it me my no of on or so to up us we'.split(' '));
const MATH_NAMES = new Set(
  'sin cos tan cot sec csc sinh cosh tanh arcsin arccos arctan log ln lg exp lim max min sup inf det arg gcd deg dim ker hom mod'.split(' '),
);

export interface WordCount {
  words: number;
  wordChars: number;
  chars: number;
}

/** Words of a text read, and how many of its non-space characters they cover. */
export function countWords(text: string): WordCount {
  let words = 0;
  let wordChars = 0;
  let chars = 0;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    chars += token.length;
    const bare = token.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/g, '');
    const lower = bare.toLowerCase();
    // A hyphen between single letters (`m-n`, `x-y`) is a minus sign, not a compound word.
    const isWord =
      /^[A-Za-z][a-z]*(?:-[a-z]+)*$/.test(bare) &&
      !/(?:^|-)[A-Za-z]-|-[a-z]$/.test(bare) &&
      ((bare.length >= 3 && !MATH_NAMES.has(lower)) || SHORT_WORDS.has(lower));
    if (isWord) {
      words++;
      wordChars += bare.length;
    }
  }
  return { words, wordChars, chars };
}

export function isWordy(text: string): boolean {
  const c = countWords(text);
  return c.words >= WORDY_MIN_WORDS || (c.words >= 1 && c.wordChars >= WORDY_CHAR_SHARE * c.chars);
}

/**
 * Whether a wordy line is prose beyond doubt: WORDY_MIN_WORDS words. A line of one word may be a
 * formula the text model half read (`In` for I_n, `cdm` for the ink of ∫ x dx): its maths read
 * decides (sureMath).
 */
export const isProse = (text: string) => countWords(text).words >= WORDY_MIN_WORDS;
