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
 * step, repeats collapsed, blanks removed.
 */
export function ctcGreedyDecode(probs: Float32Array, offset: number, steps: number, classes: number, charset: string[]): DecodedText {
  let text = '';
  let sum = 0;
  const chars: DecodedChar[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = probs[row];
    for (let k = 1; k < classes; k++) {
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
