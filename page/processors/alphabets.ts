import { ALPHABET_CODES, ALPHABETS, type Alphabet } from '../../core/options/alphabets.js';
import type { PageLine, PageRecognition } from '../model.js';
import { mapRecognitionText } from './text-map.js';

/**
 * Alphabets of 2.1 (detected_alphabets) and 4.2/4.7 (alphabets_allowed) acting on a page; the
 * codes and the request's check are shared with the request schemas (core/options/alphabets.ts).
 * A code set to false has its characters removed from the text (maths is left alone), and a line
 * left empty is dropped. detected_alphabets is an array holding one object with every code and
 * whether the answer's text holds a character of it.
 */

/** `text` without the characters of the `excluded` alphabets, its spaces closed up. */
export const withoutAlphabetsText = (text: string, excluded: Alphabet[]) =>
  excluded
    .reduce((t, code) => t.replace(ALPHABETS[code], ''), text)
    .replace(/\s{2,}/g, ' ')
    .trim();

/** The recognition with the excluded alphabets' characters removed from its text (words, lines). */
export function withoutAlphabets(r: PageRecognition, excluded: Alphabet[]): PageRecognition {
  return excluded.length ? mapRecognitionText(r, (t) => withoutAlphabetsText(t, excluded)) : r;
}

/** detected_alphabets: one object of every code to whether it was found, in a list of one (2.1). */
export type AlphabetsFound = [Record<Alphabet, boolean>];

/** detected_alphabets: one object of every code to whether the text lines (maths left out) hold it. */
export function detectedAlphabets(lines: PageLine[]): AlphabetsFound {
  const text = lines
    .filter((l) => l.kind !== 'math')
    .map((l) => l.text)
    .join('\n');
  return [Object.fromEntries(ALPHABET_CODES.map((c) => [c, new RegExp(ALPHABETS[c].source, 'u').test(text)])) as Record<Alphabet, boolean>];
}
