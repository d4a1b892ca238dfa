import type { DecodedChar, DecodedText } from './ctc.js';
import type { Crop } from './recognize.js';

/**
 * Blank columns of a line crop, and the spaces between a line's words. The CTC recogniser decides
 * a line's spaces, and it reads some wide gaps as two spaces and some as none: a section number
 * and its title an em apart (`2The heat equation`), which the detector puts in one box where they
 * are close in its input (a smaller detection size joins them in its probability map more often).
 * A blank run of columns that wide between two characters is a space whatever the recogniser
 * says; a word space is about a third of an em and the gaps inside a word far narrower, so only
 * runs well above a word space count.
 */

/** A column is blank when its darkest pixel is lighter than this share of the way from the crop's ink to its paper. */
const BLANK_LEVEL = 0.85;
/**
 * The narrowest blank run between two characters read as one word that is made a space, as a
 * share of the crop's height. A line box is about 1.3–1.6 em high (the detector's unclip), so this
 * is about half an em: wider than any gap inside a word and than most word spaces, narrower than
 * a section number's em.
 */
const MIN_UNREAD_SPACE_SHARE = 0.3;

/**
 * Characters a word may end and start with: Latin, Greek and Cyrillic letters, digits, and the
 * punctuation of prose. A wide gap beside anything else (a relation or operator, whose thick
 * spaces a formula's box stretches to the height's share of a section number's em; a character
 * the recogniser took from East Asian script) is maths spacing, not a word space: a formula read
 * with spaces around its `=` reads as words and loses its maths read.
 */
const WORD_END = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}.,;:!?)\]'"\u2019\u201D]$/u;
const WORD_START = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}(['"\u2018\u201C]$/u;

/** The crop's rows. */
export const cropHeight = (crop: Crop) => crop.pixels.length / crop.channels / crop.width;

/** The darkest level of each column (of the green channel in an RGB crop). */
function columnMinima(crop: Crop): Uint8Array {
  const { pixels, width, channels } = crop;
  const height = cropHeight(crop);
  const min = new Uint8Array(width).fill(255);
  const offset = channels === 3 ? 1 : 0;
  for (let y = 0; y < height; y++) {
    let at = y * width * channels + offset;
    for (let x = 0; x < width; x++, at += channels) {
      const v = pixels[at]!;
      if (v < min[x]!) min[x] = v;
    }
  }
  return min;
}

/** The value at rank `share` × `count` of the values a histogram counts, in ascending order. */
function levelAt(histogram: Uint32Array, count: number, share: number): number {
  const rank = Math.floor(count * share);
  let seen = 0;
  for (let v = 0; v < 256; v++) if ((seen += histogram[v]!) > rank) return v;
  return 255;
}

/** 1 for each column of `crop` without ink; undefined when the crop has too little contrast to tell. */
export function blankColumns(crop: Crop): Uint8Array | undefined {
  const minima = columnMinima(crop);
  const histogram = new Uint32Array(256);
  for (let x = 0; x < minima.length; x++) histogram[minima[x]!]!++;
  // Paper: what most columns' darkest pixel is not darker than; ink: the darkest columns'.
  const paper = levelAt(histogram, minima.length, 0.95);
  const ink = levelAt(histogram, minima.length, 0.05);
  if (paper - ink < 32) return undefined;
  const blankAbove = ink + BLANK_LEVEL * (paper - ink);
  const blank = new Uint8Array(minima.length);
  for (let x = 0; x < minima.length; x++) blank[x] = minima[x]! > blankAbove ? 1 : 0;
  return blank;
}

/** The longest run of 1s in `blank[from, to)`. */
export function longestRun(blank: Uint8Array, from: number, to: number): { length: number; middle: number } {
  let best = { length: 0, middle: -1 };
  let run = 0;
  for (let x = Math.max(0, from); x < Math.min(blank.length, to); x++) {
    run = blank[x] ? run + 1 : 0;
    if (run > best.length) best = { length: run, middle: x - Math.floor(run / 2) };
  }
  return best;
}

/**
 * The read's spaces as words are spaced: one space where the recogniser read several in a row (it
 * does over wide gaps: `4  Measurements`), and one between two characters it read as one word
 * (one that may end a word, one that may start one: WORD_END, WORD_START) where the crop's
 * columns between them hold a blank run at least MIN_UNREAD_SPACE_SHARE of its height. `stepWidth`: the crop's columns per CTC step. Spaces do not weigh in the confidence.
 */
export function wordSpaces(decoded: DecodedText, crop: Crop, stepWidth: number): DecodedText {
  const { chars } = decoded;
  if (chars.length < 2) return decoded;
  const minRun = MIN_UNREAD_SPACE_SHARE * cropHeight(crop);
  const blank = blankColumns(crop);
  const out: DecodedText = { text: '', confidence: decoded.confidence, chars: [] };
  for (const b of chars) {
    const a = out.chars.at(-1);
    const isSpace = (c: DecodedChar) => c.char.trim() === '';
    if (a && isSpace(a) && isSpace(b)) {
      a.last = b.last;
      continue;
    }
    if (blank && a && WORD_END.test(a.char) && WORD_START.test(b.char)) {
      // The model fires near a glyph's middle: the gap lies between the two characters' steps.
      const run = longestRun(blank, Math.round((a.last + 0.5) * stepWidth), Math.round((b.first + 0.5) * stepWidth));
      if (run.length >= minRun) {
        out.chars.push({ char: ' ', first: a.last, last: b.first, p: 1 });
        out.text += ' ';
      }
    }
    out.chars.push({ ...b });
    out.text += b.char;
  }
  return out.text === decoded.text ? decoded : out;
}
