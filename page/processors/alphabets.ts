import { ApiError } from '../../core/errors.js';
import type { PageLine, PageRecognition } from '../model.js';
import { mapRecognitionText } from './text-map.js';

/**
 * Alphabets of 2.1 (detected_alphabets) and 4.2 (alphabets_allowed). The spec does not show the
 * shapes; Folio's (docs/v3-text-geometry.md):
 * - alphabets_allowed: an object of alphabet codes to booleans; a code set to false has its
 *   characters removed from the text read (maths is left alone), and a line left empty is dropped.
 *   Codes not listed stay allowed. An unknown code or a non-boolean value is a bad_request.
 * - detected_alphabets: an array holding one object with every code and whether the answer's
 *   text holds a character of it.
 * Han ideographs count as zh and kana as ja; Vietnamese is Latin with its own letters, so vi is
 * detected from those (ă â đ ê ô ơ ư and the letters with tone marks) and removing it removes
 * only them.
 */

export const ALPHABETS = {
  en: /[A-Za-z]/gu,
  hi: /[\u0900-\u097F]/gu,
  zh: /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/gu,
  ja: /[\u3040-\u30FF\u31F0-\u31FF]/gu,
  ko: /[\u1100-\u11FF\u3130-\u318F\uAC00-\uD7AF]/gu,
  ru: /[\u0400-\u04FF]/gu,
  th: /[\u0E00-\u0E7F]/gu,
  ta: /[\u0B80-\u0BFF]/gu,
  te: /[\u0C00-\u0C7F]/gu,
  gu: /[\u0A80-\u0AFF]/gu,
  bn: /[\u0980-\u09FF]/gu,
  vi: /[ăâđêôơưĂÂĐÊÔƠƯ\u1EA0-\u1EF9]/gu,
} as const;

export type Alphabet = keyof typeof ALPHABETS;
const CODES = Object.keys(ALPHABETS) as Alphabet[];

/** The codes set to false, after checking the object; throws bad_request naming the field. */
export function excludedAlphabets(allowed: Record<string, unknown> | undefined): Alphabet[] {
  if (!allowed) return [];
  for (const [code, value] of Object.entries(allowed)) {
    if (!(CODES as string[]).includes(code))
      throw new ApiError('bad_request', `alphabets_allowed: unknown alphabet ${JSON.stringify(code)}; known: ${CODES.join(', ')}`, {
        field: `alphabets_allowed.${code}`,
      });
    if (typeof value !== 'boolean') throw new ApiError('bad_request', `alphabets_allowed.${code} must be a boolean`, { field: `alphabets_allowed.${code}` });
  }
  return CODES.filter((c) => allowed[c] === false);
}

const strip = (text: string, excluded: Alphabet[]) =>
  excluded
    .reduce((t, code) => t.replace(ALPHABETS[code], ''), text)
    .replace(/\s{2,}/g, ' ')
    .trim();

/** The recognition with the excluded alphabets' characters removed from its text (words, lines). */
export function withoutAlphabets(r: PageRecognition, excluded: Alphabet[]): PageRecognition {
  return excluded.length ? mapRecognitionText(r, (t) => strip(t, excluded)) : r;
}

/** detected_alphabets: one object of every code to whether it was found, in a list of one (2.1). */
export type AlphabetsFound = [Record<Alphabet, boolean>];

/** detected_alphabets: one object of every code to whether the text lines (maths left out) hold it. */
export function detectedAlphabets(lines: PageLine[]): AlphabetsFound {
  const text = lines
    .filter((l) => l.kind !== 'math')
    .map((l) => l.text)
    .join('\n');
  return [Object.fromEntries(CODES.map((c) => [c, new RegExp(ALPHABETS[c].source, 'u').test(text)])) as Record<Alphabet, boolean>];
}
