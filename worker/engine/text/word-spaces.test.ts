import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DecodedChar, DecodedText } from './ctc.js';
import { decodeImage } from './image.js';
import { cropLine, type Crop } from './recognize.js';
import { blankColumns, wordSpaces } from './word-spaces.js';

const FONT_PX = 30;
const HEIGHT = 44;
const STEP = 8;

const glyphSvg = (glyphs: { char: string; x: number }[], width: number, ink = '#000') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>` +
  glyphs.map((g) => `<text x="${g.x}" y="32" font-family="DejaVu Serif" font-size="${FONT_PX}" fill="${ink}">${g.char}</text>`).join('') +
  '</svg>';

/** The ink columns [first, last] of one glyph drawn alone at x = 0. */
async function inkColumns(char: string): Promise<[number, number]> {
  const { data, info } = await sharp(Buffer.from(glyphSvg([{ char, x: 0 }], 100)))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cols = [...Array(info.width).keys()].filter((x) => [...Array(HEIGHT).keys()].some((y) => data[y * info.width + x]! < 160));
  return [cols[0]!, cols.at(-1)!];
}

/**
 * `2The` set glyph by glyph, 2 px between the letters of `The` and `gapPx` between `2` and `T`,
 * as a line crop, and the read a CTC recogniser gives of it without a space: each character
 * fired at the step over its glyph's middle.
 */
async function numberAndWord(gapPx: number, ink = '#000'): Promise<{ crop: Crop; read: DecodedText }> {
  let x = 10;
  const glyphs: { char: string; x: number; middle: number }[] = [];
  for (const char of ['2', 'T', 'h', 'e']) {
    const [first, last] = await inkColumns(char);
    glyphs.push({ char, x: x - first, middle: x + (last - first) / 2 });
    x += last - first + 1 + (char === '2' ? gapPx : 2);
  }
  const width = x + 10;
  const img = await decodeImage(
    await sharp(Buffer.from(glyphSvg(glyphs, width, ink)))
      .greyscale()
      .png()
      .toBuffer(),
  );
  const crop = await cropLine(img, { x: 0, y: 0, width, height: HEIGHT });
  const scale = crop.width / width;
  const chars: DecodedChar[] = glyphs.map((g) => {
    const step = Math.floor((g.middle * scale) / STEP);
    return { char: g.char, first: step, last: step, p: 0.9 };
  });
  return { crop, read: { text: '2The', confidence: 0.9, chars } };
}

describe('wordSpaces', () => {
  it('puts a space where a section number stands an em before its title and the recogniser read none', async () => {
    const { crop, read } = await numberAndWord(FONT_PX);
    const spaced = wordSpaces(read, crop, STEP);
    expect(spaced.text).toBe('2 The');
    expect(spaced.chars.map((c) => c.char)).toEqual(['2', ' ', 'T', 'h', 'e']);
    expect(spaced.confidence).toBe(read.confidence);
  });

  it('leaves a word space the recogniser left out alone, and the gaps between letters', async () => {
    for (const gap of [2, Math.round(FONT_PX / 4)]) {
      const { crop, read } = await numberAndWord(gap);
      expect(wordSpaces(read, crop, STEP).text, `gap ${gap}px`).toBe('2The');
    }
  });

  it('keeps a space the recogniser read, adding none beside it', async () => {
    const { crop, read } = await numberAndWord(FONT_PX);
    const withSpace: DecodedText = {
      ...read,
      text: '2 The',
      chars: [read.chars[0]!, { char: ' ', first: read.chars[0]!.last + 1, last: read.chars[0]!.last + 1, p: 0.9 }, ...read.chars.slice(1)],
    };
    expect(wordSpaces(withSpace, crop, STEP).text).toBe('2 The');
  });

  it('puts no space beside a relation or operator however wide its gap: that is maths spacing, and spaces would make a formula read as words', async () => {
    const { crop, read } = await numberAndWord(FONT_PX);
    for (const op of ['=', '+', '<', '∫', '三']) {
      const asRelation: DecodedText = { ...read, text: `${op}The`, chars: [{ ...read.chars[0]!, char: op }, ...read.chars.slice(1)] };
      expect(wordSpaces(asRelation, crop, STEP).text, op).toBe(`${op}The`);
    }
  });

  it('makes one space of the two a recogniser reads over a wide gap', async () => {
    const { crop, read } = await numberAndWord(FONT_PX);
    const step = read.chars[0]!.last;
    const space = (t: number): DecodedChar => ({ char: ' ', first: t, last: t, p: 0.9 });
    const twoSpaces: DecodedText = { ...read, text: '2  The', chars: [read.chars[0]!, space(step + 1), space(step + 3), ...read.chars.slice(1)] };
    const spaced = wordSpaces(twoSpaces, crop, STEP);
    expect(spaced.text).toBe('2 The');
    expect(spaced.chars.map((c) => c.char)).toEqual(['2', ' ', 'T', 'h', 'e']);
  });

  it('tells nothing blank on a crop without contrast, and changes nothing there', async () => {
    const { crop, read } = await numberAndWord(FONT_PX, '#f8f8f8');
    expect(blankColumns(crop)).toBeUndefined();
    expect(wordSpaces(read, crop, STEP)).toBe(read);
  });
});
