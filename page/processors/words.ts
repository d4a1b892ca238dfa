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

/** Quotes, brackets and sentence punctuation around a word. */
const around = (token: string) => token.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/g, '');

/** A word of prose: letters, lower case after the first, perhaps hyphenated; not a lone letter nor a function name. */
function isWord(bare: string): boolean {
  const lower = bare.toLowerCase();
  // A hyphen between single letters (`m-n`, `x-y`) is a minus sign, not a compound word.
  return (
    /^[A-Za-z][a-z]*(?:-[a-z]+)*$/.test(bare) &&
    !/(?:^|-)[A-Za-z]-|-[a-z]$/.test(bare) &&
    ((bare.length >= 3 && !MATH_NAMES.has(lower)) || SHORT_WORDS.has(lower))
  );
}

/** Words of a text read (`isWord` each token), and how many of its non-space characters they cover. */
export function countWords(text: string): WordCount {
  return count(text, /\s+/, isWord);
}

function count(text: string, separators: RegExp, word: (bare: string) => boolean): WordCount {
  let words = 0;
  let wordChars = 0;
  let chars = 0;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    chars += token.length;
    for (const piece of token.split(separators)) {
      const bare = around(piece);
      if (!word(bare)) continue;
      words++;
      wordChars += bare.length;
    }
  }
  return { words, wordChars, chars };
}

const wordy = (c: WordCount) => c.words >= WORDY_MIN_WORDS || (c.words >= 1 && c.wordChars >= WORDY_CHAR_SHARE * c.chars);

export function isWordy(text: string): boolean {
  return wordy(countWords(text));
}

/**
 * Whether a wordy line is prose beyond doubt: WORDY_MIN_WORDS words. A line of one word may be a
 * formula the text model half read (`In` for I_n, `cdm` for the ink of ∫ x dx): its maths read
 * decides (sureMath).
 */
export const isProse = (text: string) => countWords(text).words >= WORDY_MIN_WORDS;

/**
 * Printed prose the words above miss, read on scanned pages (headings, author blocks, references,
 * printed LaTeX): words in capitals alone (`5. REFERENCE FORMATTING`, small capitals), with a
 * footnote mark (`KING1`, `DJORGOVSKI1,2,3`, `1Current`) or an apostrophe (`markup's`), and words
 * run together by the punctuation of a URL, a path or a LaTeX command (`https://ctan.org/pkg/newtx`,
 * `\usepackage{subfigure}`, `[option1,option2]`; never at `=`: `dij=dji` is a_{ij}=a_{ji} read as
 * text). No formula's text read holds two of them, but a formula may hold one, or a word in
 * capitals (`\triangle ABC` read `AABC`), so they are weighed against the maths read
 * (line-kind.ts). `capitals`: whether words in capitals count.
 */
export function countPrintedWords(text: string, { capitals = true } = {}): WordCount {
  return count(text, /[/\\{}[\],.:;?]+/, (bare) => {
    const unmarked = bare.replace(/^\d(?=[A-Za-z]{3})/, '').replace(/(?<=[A-Za-z]{3})\d$/, '');
    return isWord(unmarked) || (capitals && isCapitalsWord(unmarked)) || /^[A-Za-z][a-z]+['’](?:s|t|d|ll|re|ve|m)$/.test(unmarked);
  });
}

/** Wordy (as isWordy) by countPrintedWords. */
export const isWordyInPrint = (text: string) => wordy(countPrintedWords(text));

/**
 * Prose beyond doubt (as isProse) by countPrintedWords, words in capitals left out: two words in
 * capitals may be the points of a figure (`AB = CD`), which only the maths read tells.
 */
export const isProseInPrint = (text: string) => countPrintedWords(text, { capitals: false }).words >= WORDY_MIN_WORDS;

/** Capital letters that spell only one-letter element symbols (`CHOH`, the text read of CH₃CH₂OH) are a formula. */
const ONE_LETTER_ELEMENTS = /^[HBCNOFPSKVYIWU]+$/;
const ROMAN = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;

/**
 * A word in capitals: three letters or more with a vowel, and not the points of a figure named in
 * alphabetical order (`ABC`, `PQRS`), a roman numeral or a run of element symbols; or such words
 * joined by hyphens.
 */
function isCapitalsWord(bare: string): boolean {
  // Words in capitals joined by hyphens are one (`CROSS-REFERENCING`, `FIRST-LEVEL`).
  if (/^[A-Z]+(?:-[A-Z]+)+$/.test(bare)) return bare.split('-').every(isCapitalsWord);
  if (!/^[A-Z]{3,}$/.test(bare) || !/[AEIOUY]/.test(bare) || ONE_LETTER_ELEMENTS.test(bare) || ROMAN.test(bare) || MATH_NAMES.has(bare.toLowerCase()))
    return false;
  return ![...bare].every((c, i) => i === 0 || c.charCodeAt(0) === bare.charCodeAt(i - 1) + 1);
}
