import { ApiError } from '../errors.js';

/**
 * The alphabet codes of 2.1 (detected_alphabets) and of alphabets_allowed (4.2, 4.7), shared by
 * every request schema that takes them and by the page layer that acts on them
 * (page/processors/alphabets.ts). The spec does not show the shapes; Folio's
 * (docs/v3-text-geometry.md): alphabets_allowed is an object of these codes to booleans, a code
 * set to false is left out, codes not listed stay allowed, an unknown code or a non-boolean value
 * is a bad_request. Han ideographs count as zh and kana as ja; Vietnamese is Latin with its own
 * letters, so vi is only those (ă â đ ê ô ơ ư and the letters with tone marks).
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
export const ALPHABET_CODES = Object.keys(ALPHABETS) as Alphabet[];

/** What is wrong with an alphabets_allowed object (the field, and a message to follow its name), or undefined when nothing is. */
export function alphabetsProblem(allowed: Record<string, unknown> | undefined): { field: string; message: string } | undefined {
  for (const [code, value] of Object.entries(allowed ?? {})) {
    const field = `alphabets_allowed.${code}`;
    if (!(ALPHABET_CODES as string[]).includes(code))
      return { field, message: `unknown alphabet ${JSON.stringify(code)}; known: ${ALPHABET_CODES.join(', ')}` };
    if (typeof value !== 'boolean') return { field, message: 'must be a boolean' };
  }
  return undefined;
}

/** The codes set to false, after checking the object; throws bad_request naming the field. */
export function excludedAlphabets(allowed: Record<string, unknown> | undefined): Alphabet[] {
  const problem = alphabetsProblem(allowed);
  if (problem) throw new ApiError('bad_request', `${problem.field}: ${problem.message}`, { field: problem.field });
  return ALPHABET_CODES.filter((c) => allowed?.[c] === false);
}
