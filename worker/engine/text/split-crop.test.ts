import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './image.js';
import { cropLine, type LineRead } from './recognize.js';
import { cropColumns, cutColumns, joinReads, SPLIT_ABOVE, splitCrop } from './split-crop.js';

const WORDS = 'Folio reads scanned pages of mathematics and prose into Markdown with LaTeX for every formula it finds there'.split(' ');

/**
 * A line of serif words as a 200 dpi scan holds it (12 pt, about 40 px high), each word drawn at
 * a known column, so the gaps between words are known; `noise` adds a scanner's grain.
 */
async function wordLine(noise = false): Promise<{ png: Buffer; gaps: [number, number][]; width: number; height: number }> {
  const height = 44;
  // Widths measured from the render itself: each word drawn alone, its ink columns found.
  const inkWidth = async (word: string) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="${height}"><rect width="100%" height="100%" fill="#fff"/><text x="0" y="32" font-family="DejaVu Serif" font-size="30">${word}</text></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
    let last = 0;
    for (let x = 0; x < info.width; x++) for (let y = 0; y < height; y++) if (data[y * info.width + x]! < 160) last = x;
    return last + 1;
  };
  const space = 14;
  let x = 20;
  const texts: string[] = [];
  const gaps: [number, number][] = [];
  for (const word of WORDS) {
    texts.push(`<text x="${x}" y="32" font-family="DejaVu Serif" font-size="30">${word}</text>`);
    x += await inkWidth(word);
    gaps.push([x, x + space]);
    x += space;
  }
  const width = x + 20;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${texts.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  if (noise) {
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + 40 * (rnd() - 0.5))));
  }
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
  return { png, gaps: gaps.slice(0, -1), width, height };
}

describe('splitCrop', () => {
  for (const noise of [false, true]) {
    it(`cuts a long line crop only in the gaps between its words${noise ? ', on a grainy scan too' : ''}`, async () => {
      const line = await wordLine(noise);
      const img = await decodeImage(line.png);
      const crop = await cropLine(img, { x: 0, y: 0, width: line.width, height: line.height });
      expect(crop.width).toBeGreaterThan(2 * SPLIT_ABOVE);
      const cuts = cutColumns(crop);
      expect(cuts.length).toBeGreaterThanOrEqual(Math.floor(crop.width / 640));
      const scale = crop.sourceWidth / crop.width;
      for (const cut of cuts) expect(line.gaps.some(([a, b]) => cut * scale > a && cut * scale < b)).toBe(true);
      const pieces = splitCrop(crop);
      expect(pieces).toHaveLength(cuts.length + 1);
      // The pieces tile the crop: together they are its columns, each placed where it was.
      expect(pieces.reduce((n, p) => n + p.width, 0)).toBe(crop.width);
      expect(Buffer.concat(pieces.map((p) => p.pixels.subarray(0, p.width)))).toEqual(crop.pixels.subarray(0, crop.width));
      expect(pieces.at(-1)!.left + pieces.at(-1)!.sourceWidth).toBeCloseTo(crop.left + crop.sourceWidth, 6);
    });
  }

  it('reads a crop up to SPLIT_ABOVE columns, or one without a word gap, whole', async () => {
    const line = await wordLine();
    const img = await decodeImage(line.png);
    const crop = await cropLine(img, { x: 0, y: 0, width: line.width, height: line.height });
    expect(splitCrop(cropColumns(crop, 0, SPLIT_ABOVE))).toHaveLength(1);
    const ink = { ...crop, pixels: Buffer.alloc(crop.pixels.length, 0) };
    for (let i = 0; i < ink.pixels.length; i += 7) ink.pixels[i] = 255; // dark throughout
    expect(splitCrop(ink)).toHaveLength(1);
  });
});

describe('joinReads', () => {
  const read = (text: string, x: number, p: number): LineRead => ({
    text,
    confidence: p,
    chars: [...text].map((char, i) => ({ char, first: i, last: i, p })),
    spans: [...text].map((char, i) => ({ char, x0: x + 10 * i, x1: x + 10 * i + 10, p })),
  });

  it("joins the pieces' texts with one space, keeping every character's columns and weighing confidence by characters", () => {
    const joined = joinReads([read('ab ', 0, 0.9), read(' cde', 100, 0.6)]);
    expect(joined.text).toBe('ab cde');
    expect(joined.spans.map((s) => s.char).join('')).toBe('ab cde');
    expect(joined.spans[2]).toMatchObject({ char: ' ', x0: 20, x1: 110 });
    expect(joined.spans[3]).toMatchObject({ char: 'c', x0: 110 });
    expect(joined.confidence).toBeCloseTo((0.9 * 3 + 0.6 * 4) / 7, 6);
  });

  it('leaves out a piece that read nothing', () => {
    expect(joinReads([read('ab', 0, 0.9), read('', 100, 0), read('c', 200, 0.8)]).text).toBe('ab c');
  });
});
