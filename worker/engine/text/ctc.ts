/** CTC greedy decoding for PP-OCR recognition models. */

/**
 * PP-OCR's character list: index 0 is the CTC blank, then one character per dictionary line,
 * then a space (`use_space_char`), which the dictionary file itself does not contain.
 */
export function ctcCharset(dictionary: string): string[] {
  const lines = dictionary.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return ['', ...lines, ' '];
}

/**
 * East Asian scripts and forms: CJK radicals and punctuation, kana, Han, Hangul, compatibility
 * ideographs, CJK compatibility forms, fullwidth and halfwidth forms.
 */
const EAST_ASIAN_CLASS = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE6F\uFF00-\uFFEF]/u;

/** Whether `text` holds a character latinClasses leaves out. */
export const hasEastAsianForms = (text: string) => EAST_ASIAN_CLASS.test(text);

/**
 * The classes a page without East Asian text may emit: every character of `charset` but the
 * East Asian ones (1 = allowed; the blank always is). The text model is the Chinese-English
 * PP-OCR one, and on a noisy Latin scan it reads a bar as `丨` or a bracket as `（`.
 */
export function latinClasses(charset: string[]): Uint8Array {
  return Uint8Array.from(charset, (c, k) => (k === 0 || !EAST_ASIAN_CLASS.test(c) ? 1 : 0));
}

/** One emitted character and the CTC steps its run covered (first..last, inclusive). */
export interface DecodedChar {
  char: string;
  first: number;
  last: number;
  /** The probability at the run's first step. */
  p: number;
}

export interface DecodedText {
  text: string;
  /** Mean of the per-step maximum probability over the emitted characters; 0 when none. */
  confidence: number;
  /** One entry per character of `text`, in order. */
  chars: DecodedChar[];
}

/**
 * Decodes one sequence of `steps` × `classes` probabilities starting at `offset`: argmax per
 * step (over the `allowed` classes only, when given: latinClasses), repeats collapsed, blanks
 * removed.
 */
export function ctcGreedyDecode(probs: Float32Array, offset: number, steps: number, classes: number, charset: string[], allowed?: Uint8Array): DecodedText {
  let text = '';
  let sum = 0;
  const chars: DecodedChar[] = [];
  let previous = -1;
  // The classes to weigh besides the blank, listed once: a Latin page skips the ~6,000 Han ones at every step.
  const candidates = candidateClasses(classes, allowed);
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = probs[row];
    for (let i = 0; i < candidates.length; i++) {
      const k = candidates[i]!;
      const p = probs[row + k];
      if (p > bestP) {
        bestP = p;
        best = k;
      }
    }
    if (best !== 0 && best === previous) chars[chars.length - 1]!.last = t;
    else if (best !== 0) {
      const char = charset[best] ?? '';
      text += char;
      sum += bestP;
      chars.push({ char, first: t, last: t, p: bestP });
    }
    previous = best;
  }
  return { text, confidence: chars.length ? sum / chars.length : 0, chars };
}

function candidateClasses(classes: number, allowed?: Uint8Array): Int32Array {
  const out = new Int32Array(classes - 1);
  let n = 0;
  for (let k = 1; k < classes; k++) if (!allowed || allowed[k]) out[n++] = k;
  return out.subarray(0, n);
}
