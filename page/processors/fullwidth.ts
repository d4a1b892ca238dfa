/**
 * Fullwidth and halfwidth punctuation. The text model's dictionary is Chinese with Latin, and it
 * sometimes reads a bracket or a colon in Latin text as its fullwidth form (`（`, `：`); the spec's
 * fullwidth_punctuation (4.2, 4.7) asks for one form or, when null, the form that suits the text:
 * fullwidth in East Asian text, halfwidth otherwise. Only punctuation changes; letters and digits
 * keep the form they were read in.
 */

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const EAST_ASIAN = /[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/u;
const FULLWIDTH_PUNCTUATION = new RegExp(`[${[...PUNCTUATION].map((c) => `\\u${(c.charCodeAt(0) + 0xfee0).toString(16)}`).join('')}\\u3000]`, 'gu');
const HALFWIDTH_PUNCTUATION = new RegExp(`[${PUNCTUATION.replace(/[\\\]^-]/g, '\\$&')}]`, 'g');

/** Whether `text` holds East Asian script (kana, Han, Hangul): fullwidth punctuation suits it. */
export const isEastAsian = (text: string) => EAST_ASIAN.test(text);

/**
 * `text` with its punctuation fullwidth (true), halfwidth (false), or as suits `context` (null:
 * the line a word belongs to, by default the text itself).
 */
export function punctuationWidth(text: string, fullwidth: boolean | null | undefined, context = text): string {
  const wantFull = fullwidth ?? isEastAsian(context);
  if (wantFull) return text.replace(HALFWIDTH_PUNCTUATION, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  return text.replace(FULLWIDTH_PUNCTUATION, (c) => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0)));
}
