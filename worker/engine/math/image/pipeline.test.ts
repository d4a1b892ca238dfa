import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { noisySkewed } from '../../../../bench/scanned-renders.js';
import type { GrayImage } from '../types.js';
import { binarise, otsuThreshold, scanNoise } from './binarise.js';
import { connectedComponents } from './components.js';
import { mergeComponents } from './merge.js';
import { CROP_SIZE, normaliseCrop } from './normalise.js';

/** A white raster on which tests draw filled rectangles and discs of ink. */
function canvas(width: number, height: number) {
  const data = new Uint8Array(width * height).fill(255);
  const api = {
    rect(x0: number, y0: number, x1: number, y1: number, grey = 0) {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = grey;
      return api;
    },
    disc(cx: number, cy: number, r: number) {
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) data[y * width + x] = 0;
      return api;
    },
    /** A one-pixel-wide diagonal stroke of `thickness` rows, like the arms of < or x. */
    line(x0: number, y0: number, x1: number, y1: number, thickness = 2) {
      const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
      for (let s = 0; s <= steps; s++) {
        const x = Math.round(x0 + ((x1 - x0) * s) / steps);
        const y = Math.round(y0 + ((y1 - y0) * s) / steps);
        api.rect(x, y, x + thickness, y + thickness);
      }
      return api;
    },
    image: (): GrayImage => ({ data, width, height }),
  };
  return api;
}

const groupsOf = (image: GrayImage) => mergeComponents(connectedComponents(binarise(image)));

/** The image as the bench's scanner gives it back: noise and grain, no skew (bench/scanned-renders.ts). */
async function scanned(clean: GrayImage, seed: number): Promise<GrayImage> {
  const png = await sharp(Buffer.from(clean.data), { raw: { width: clean.width, height: clean.height, channels: 1 } })
    .png()
    .toBuffer();
  const { data, info } = await sharp(await noisySkewed(png, 0, seed))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('binarise', () => {
  it('splits ink from paper with Otsu and keeps a faint anti-aliased pixel that touches ink', () => {
    const image = canvas(40, 40).rect(5, 5, 15, 15, 0).rect(15, 8, 16, 9, 150).rect(30, 30, 31, 31, 150).image();
    const threshold = otsuThreshold(image);
    expect(threshold).toBeGreaterThan(0);
    expect(threshold).toBeLessThan(150);
    const mask = binarise(image);
    expect(mask.data[5 * 40 + 5]).toBe(1);
    expect(mask.data[8 * 40 + 15]).toBe(1); // faint, but joined to the stroke
    expect(mask.data[30 * 40 + 30]).toBe(0); // faint and alone: paper
    expect(mask.data[0]).toBe(0);
  });

  it('grows ink along a faint hairline however it runs from the stroke, and not into faint pixels apart from it', () => {
    // A faint hairline climbs up and to the left from the foot of a stroke: each of its pixels
    // touches ink only through the next, which comes later in raster order.
    const image = canvas(60, 60).rect(40, 40, 50, 50, 0);
    for (let k = 1; k <= 20; k++) image.rect(40 - k, 40 - k, 41 - k, 41 - k, 150);
    image.rect(5, 50, 15, 51, 150); // as faint, touching nothing
    const mask = binarise(image.image());
    for (let k = 1; k <= 20; k++) expect(mask.data[(40 - k) * 60 + 40 - k]).toBe(1);
    for (let x = 5; x < 15; x++) expect(mask.data[50 * 60 + x]).toBe(0);
    expect(connectedComponents(mask).components).toHaveLength(1);
  });

  it('binarises a grainy, dusty scan as its glyphs alone, a 2×2 dot among them', async () => {
    // Strokes two pixels wide and a \\cdot of 2×2 pixels, as a 150 dpi render draws them.
    const clean = canvas(120, 40).rect(10, 10, 12, 30).rect(20, 19, 40, 21).rect(50, 18, 52, 20).line(70, 10, 85, 30).rect(95, 10, 97, 30).image();
    for (const seed of [1, 2, 3]) {
      const { components } = connectedComponents(binarise(await scanned(clean, seed)));
      expect(components.map((c) => [c.box.x0, c.box.y0])).toHaveLength(5);
      const dot = components.find((c) => c.box.x0 >= 48 && c.box.x1 <= 54);
      expect(dot?.area).toBeGreaterThanOrEqual(2);
    }
  });

  it("binarises a band cut from a scan with its page's paper noise, as the page binarises it", async () => {
    // A band of strokes on a page of grainy paper: the band's own few paper pixels, many of them
    // blurred stroke edges, put the noise too high, and measured on the band alone half its ink was lost.
    // Strokes with the grey fringes of an anti-aliased render, packed as a formula's glyphs are.
    const page0 = canvas(200, 120);
    for (let x = 40; x < 124; x += 6) page0.rect(x - 1, 50, x + 3, 70, 170).rect(x, 50, x + 2, 70, 40);
    const clean = page0.image();
    expect(scanNoise(clean)).toBeNull();
    for (const seed of [1, 2, 3]) {
      const page = await scanned(clean, seed);
      const band = { x0: 39, y0: 50, x1: 125, y1: 70 };
      const margin = 4;
      const cut = (scan?: GrayImage['scan']): GrayImage => {
        const c = canvas(band.x1 - band.x0 + 2 * margin, band.y1 - band.y0 + 2 * margin);
        const image = c.image();
        for (let y = band.y0; y < band.y1; y++)
          image.data.set(page.data.subarray(y * page.width + band.x0, y * page.width + band.x1), (y - band.y0 + margin) * image.width + margin);
        return scan === undefined ? image : { ...image, scan };
      };
      const pageMask = binarise(page);
      const inkOf = (mask: { data: Uint8Array; width: number }) => {
        let ink = 0;
        for (let y = band.y0; y < band.y1; y++)
          for (let x = band.x0; x < band.x1; x++) ink += mask.data[(y - band.y0 + margin) * mask.width + x - band.x0 + margin]!;
        return ink;
      };
      let pageInk = 0;
      for (let y = band.y0; y < band.y1; y++) for (let x = band.x0; x < band.x1; x++) pageInk += pageMask.data[y * page.width + x]!;
      const noise = scanNoise(page);
      expect(noise?.sigma).toBeGreaterThan(0);
      expect(Math.abs(inkOf(binarise(cut(noise))) - pageInk)).toBeLessThanOrEqual(0.05 * pageInk);
    }
  });

  it('returns an empty mask for a blank or nearly uniform image', () => {
    const flat = canvas(8, 8).rect(0, 0, 8, 8, 240).rect(3, 3, 4, 4, 230).image();
    expect(binarise(flat).data.every((v) => v === 0)).toBe(true);
  });
});

describe('connectedComponents', () => {
  it('joins diagonal neighbours (8-connectivity), separates distinct blobs and measures boxes', () => {
    const image = canvas(10, 6).rect(1, 1, 2, 2).rect(2, 2, 3, 3).rect(6, 1, 9, 5).image();
    const map = connectedComponents(binarise(image));
    expect(map.components.map((c) => ({ box: c.box, area: c.area }))).toEqual([
      { box: { x0: 1, y0: 1, x1: 3, y1: 3 }, area: 2 },
      { box: { x0: 6, y0: 1, x1: 9, y1: 5 }, area: 12 },
    ]);
    expect(map.labels[1 * 10 + 1]).toBe(map.labels[2 * 10 + 2]);
  });

  it('merges a U shape whose arms meet only at the bottom into one component', () => {
    const image = canvas(9, 8).rect(1, 1, 3, 7).rect(6, 1, 8, 7).rect(1, 6, 8, 7).image();
    expect(connectedComponents(binarise(image)).components).toHaveLength(1);
  });
});

describe('mergeComponents', () => {
  it('joins the two bars of = but leaves a lone minus as RULE', () => {
    const groups = groupsOf(canvas(60, 30).rect(4, 10, 22, 12).rect(4, 17, 22, 19).rect(34, 14, 52, 16).image());
    expect(groups.map((g) => [g.parts.length, g.rule])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it('joins the dot of an i with its stem, and the two dots of a colon', () => {
    const groups = groupsOf(canvas(40, 30).disc(6, 5, 2).rect(5, 9, 8, 24).disc(20, 10, 2).disc(20, 21, 2).image());
    expect(groups.map((g) => g.parts.length)).toEqual([2, 2]);
  });

  it('keeps a fraction bar apart from numerator and denominator and marks it RULE', () => {
    // Numerator and denominator: crosses about as wide as the bar, like \frac{x}{x}.
    const cross = (c: ReturnType<typeof canvas>, top: number) => c.line(10, top, 22, top + 14).line(22, top, 10, top + 14);
    const groups = groupsOf(cross(cross(canvas(40, 50), 4).rect(8, 22, 26, 24), 28).image());
    expect(groups).toHaveLength(3);
    expect(groups.filter((g) => g.rule).map((g) => g.box)).toEqual([{ x0: 8, y0: 22, x1: 26, y1: 24 }]);
  });

  it('joins a bar under a < into one symbol (≤) when nothing lies below the bar', () => {
    const image = canvas(40, 40).line(24, 4, 8, 12).line(8, 12, 24, 20).rect(8, 26, 26, 28).image();
    const groups = groupsOf(image);
    expect(groups).toHaveLength(1);
    expect(groups[0].rule).toBe(false);
  });

  it('joins ÷ (dots over and under a bar) and drops single-pixel noise', () => {
    const image = canvas(40, 40).disc(20, 8, 2.5).rect(8, 18, 32, 20).disc(20, 30, 2.5).rect(2, 37, 3, 38).image();
    const groups = groupsOf(image);
    expect(groups.map((g) => [g.parts.length, g.rule])).toEqual([[3, false]]);
  });

  it('does not call a wavy stroke (a tilde) a RULE', () => {
    const image = canvas(40, 20).line(2, 10, 10, 5).line(10, 5, 20, 12).line(20, 12, 30, 6).image();
    expect(groupsOf(image).map((g) => g.rule)).toEqual([false]);
  });

  it('does not call a flat shape with holes (∞ at 150 dpi) or a flat-topped tall shape a RULE', () => {
    const infinity = canvas(50, 12).rect(4, 4, 44, 9).rect(5, 5, 23, 8, 255).rect(25, 5, 43, 8, 255).image();
    expect(groupsOf(infinity).map((g) => g.rule)).toEqual([false]);
    // A radical sign touching a long vinculum: the inner columns alone look like a bar.
    const radical = canvas(160, 34).line(10, 2, 4, 30).rect(10, 2, 150, 4).image();
    expect(groupsOf(radical).map((g) => g.rule)).toEqual([false]);
  });

  it('joins a radical sign to the vinculum TeX sets beside it as a rule', () => {
    const groups = groupsOf(canvas(90, 34).line(10, 3, 4, 30).rect(13, 3, 80, 5).line(30, 12, 44, 26).line(44, 12, 30, 26).image());
    expect(groups.map((g) => [g.parts.length, g.rule])).toEqual([
      [2, false],
      [1, false],
    ]);
  });

  it('keeps a minus beside an n apart, and a dot over a q apart from it', () => {
    const nMinus = canvas(30, 24).rect(4, 10, 6, 20).rect(4, 10, 12, 12).rect(10, 10, 12, 20).rect(14, 14, 24, 16).image();
    expect(groupsOf(nMinus).map((g) => [g.parts.length, g.rule])).toEqual([
      [1, false],
      [1, true],
    ]);
    const dottedQ = canvas(24, 30).rect(4, 10, 14, 18).rect(6, 12, 12, 16, 255).rect(12, 10, 14, 26).disc(9, 6, 1.5).image();
    expect(groupsOf(dottedQ)).toHaveLength(2);
  });

  it('returns symbols left to right', () => {
    const groups = groupsOf(canvas(60, 20).rect(40, 2, 44, 18).rect(4, 2, 8, 18).rect(22, 2, 26, 18).image());
    expect(groups.map((g) => g.box.x0)).toEqual([4, 22, 40]);
  });
});

describe('normaliseCrop', () => {
  it('fits the longer side into the canvas, centred, preserving aspect ratio and ignoring foreign ink', () => {
    // A tall bar (4×20) with another component inside its box region's neighbourhood.
    const map = connectedComponents(binarise(canvas(30, 30).rect(10, 5, 14, 25).rect(16, 5, 18, 7).image()));
    const bar = map.components.find((c) => c.area === 80)!;
    const crop = normaliseCrop(map, [bar.id], { x0: 10, y0: 5, x1: 18, y1: 25 }, 40);
    expect(crop.pixels).toHaveLength(CROP_SIZE * CROP_SIZE);
    const inked = [...crop.pixels.keys()].filter((i) => crop.pixels[i] > 0.5);
    const cols = inked.map((i) => i % CROP_SIZE);
    const rows = inked.map((i) => Math.floor(i / CROP_SIZE));
    expect(Math.min(...rows)).toBe(2);
    expect(Math.max(...rows)).toBe(CROP_SIZE - 3);
    // Box 8×20 scaled by 28/20: the bar covers the left 4/8 of an 11.2-pixel-wide span centred at 16.
    expect(Math.min(...cols)).toBe(11);
    expect(Math.max(...cols)).toBe(15);
    expect(crop.pixels[4 * CROP_SIZE + 20]).toBe(0); // the other component's ink is not drawn
    expect([...crop.features]).toEqual([expect.closeTo(Math.log2(8 / 20) / 4, 5), 0.5, 1]);
  });

  it('marks the size unknown when no em is given', () => {
    const map = connectedComponents(binarise(canvas(10, 10).rect(2, 2, 8, 8).image()));
    expect([...normaliseCrop(map, [1], map.components[0].box).features]).toEqual([0, 0, 0]);
  });
});
