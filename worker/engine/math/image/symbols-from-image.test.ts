import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { noisySkewed } from '../../../../bench/scanned-renders.js';
import { renderTexSvg, type MathJaxFontName } from '../../../../models/training/render-mathjax.js';
import { RULE, type GrayImage } from '../types.js';
import { SymbolClassifier } from './classifier.js';
import { loadHandwritingClassifier } from './handwriting.js';
import { loadScanClassifier } from './scan-classifier.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/** A formula typeset by MathJax and rasterised by resvg, as a greyscale image. */
async function formula(tex: string, emPx = 36, font: MathJaxFontName = 'tex'): Promise<GrayImage> {
  const svg = await renderTexSvg(tex, font, { emPx });
  const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
  const rgba = rendered.pixels;
  const data = new Uint8Array(rendered.width * rendered.height);
  for (let i = 0; i < data.length; i++) data[i] = rgba[4 * i + 1];
  return { data, width: rendered.width, height: rendered.height };
}

/** The same formula as a flatbed scanner takes it: softened, grainy (σ 18 grey levels) and dusty (bench/scanned-renders.ts). */
async function scanned(tex: string, emPx: number, seed: number): Promise<GrayImage> {
  const svg = await renderTexSvg(tex, 'tex', { emPx });
  const png = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render().asPng();
  const { data, info } = await sharp(await noisySkewed(png, 0, seed))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('symbolsFromImage', () => {
  let classifier: SymbolClassifier;
  beforeAll(async () => {
    classifier = await SymbolClassifier.load({ intraOpThreads: 1 });
  });
  const labels = async (tex: string, emPx?: number) => (await symbolsFromImage(await formula(tex, emPx), { classifier })).map((s) => s.latex);

  it('reads x+2=5 left to right, the bars of = joined into one symbol', async () => {
    expect(await labels('x+2=5')).toEqual(['x', '+', '2', '=', '5']);
  });

  it('joins the bar of ≤ with its < and the dots of i and j with their stems', async () => {
    expect(await labels('a \\leq b')).toEqual(['a', '\\leq', 'b']);
    expect(await labels('i\\;j')).toEqual(['i', 'j']);
  });

  it('gives a fraction bar and a minus sign as RULE, never as a classified glyph', async () => {
    const symbols = await symbolsFromImage(await formula('\\frac{a}{b}-c'), { classifier });
    expect(symbols.filter((s) => s.latex === RULE)).toHaveLength(2);
    expect(symbols.filter((s) => s.latex !== RULE).map((s) => s.latex)).toEqual(['a', 'b', 'c']);
  });

  it('reads Greek letters, big operators and radicals, with probabilities and alternatives', async () => {
    const symbols = await symbolsFromImage(await formula('\\sum \\alpha \\sqrt{y}'), { classifier });
    expect(symbols.map((s) => s.latex)).toEqual(['\\sum', '\\alpha', '\\sqrt', 'y']);
    for (const s of symbols) {
      expect(s.confidence).toBeGreaterThan(0.5);
      // Up to three runners-up: a letter's italic and upright readings are pooled into one.
      expect(s.alternatives!.length).toBeGreaterThan(0);
      expect(s.alternatives!.length).toBeLessThanOrEqual(3);
      expect(s.alternatives!.every((a) => a.confidence <= s.confidence)).toBe(true);
    }
    // The radical's box spans its vinculum, so the radicand lies inside it.
    const [radical, radicand] = symbols.slice(2);
    expect(radical.box.x1).toBeGreaterThanOrEqual(radicand.box.x1);
  });

  it('tells a full stop from a centred dot by its height', async () => {
    expect(await labels('a \\cdot b.')).toEqual(['a', '\\cdot', 'b', '.']);
  });

  it('reads upright letters as letters styled upright, italic ones without a style', async () => {
    const symbols = await symbolsFromImage(await formula('\\mathrm{H}_2\\mathrm{O} + x'), { classifier });
    expect(symbols.map((s) => [s.latex, s.style])).toEqual([
      ['H', 'upright'],
      ['2', undefined],
      ['O', 'upright'],
      ['+', undefined],
      ['x', undefined],
    ]);
  });

  it('reads a blackboard letter class as its letter styled blackboard, which the parser writes back as \\mathbb', async () => {
    const symbols = await symbolsFromImage(await formula('x\\in\\mathbb{R}'), { classifier });
    expect(symbols.map((s) => [s.latex, s.style])).toEqual([
      ['x', undefined],
      ['\\in', undefined],
      ['R', 'blackboard'],
    ]);
  });

  it('reads two glyphs whose ink touches as two symbols', async () => {
    // Kerned together, each pair below is one connected blob of ink.
    expect(await labels('2+1\\mkern-3mu 2', 24)).toEqual(['2', '+', '1', '2']);
    expect(await labels('x+(a+b)\\mkern-4mu(c)', 24)).toEqual(['x', '+', '(', 'a', '+', 'b', ')', '(', 'c', ')']);
  });

  it("cuts an i off the letter it touches, told by the i's tittle (\\sin's in, \\lim's li at 150 dpi)", async () => {
    // Kerned together, `in` is one blob that reads m or n with a dot off its centre, and `li` one that reads h.
    expect(await labels('\\mathrm{s}\\mathrm{i}\\mkern-2mu\\mathrm{n}\\,x', 22)).toEqual(['s', 'i', 'n', 'x']);
    expect(await labels('\\mathrm{l}\\mkern-2mu\\mathrm{i}\\mathrm{m}\\,x', 22)).toEqual(['l', 'i', 'm', 'x']);
    // A centred dot is an accent, not a tittle: \\dot{m} stays one letter under its dot.
    expect(await labels('\\dot{m}', 22)).toEqual(['m', '\\dot']);
  });

  it('reads a small \\vec as an arrow, not as a bar (at 20–21 px per em it is a pixel-thin shaft with a small head)', async () => {
    for (const emPx of [20, 21]) expect(await labels('\\vec{w}+\\vec{v}', emPx)).toEqual(['w', '\\vec', '+', 'v', '\\vec']);
  });

  it('frees a \\dot accent the merge step joined to the letter under it (\\dot{q} read as 4 at 150 dpi)', async () => {
    for (const emPx of [20, 22]) expect(await labels('\\partial\\dot{q}+\\dot{p}', emPx)).toEqual(['\\partial', 'q', '\\dot', '+', 'p', '\\dot']);
  });

  it('reads a scanned formula at 150 dpi size: dust and grain are no dots, a \\cdot and the tittles of i and j stay', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const read = async (tex: string) => (await symbolsFromImage(await scanned(tex, 20, seed), { classifier })).map((s) => s.latex);
      expect(await read('i+j=k')).toEqual(['i', '+', 'j', '=', 'k']);
      expect(await read('a \\cdot b')).toEqual(['a', '\\cdot', 'b']);
    }
  });

  it("reads apart the glyphs a scan's blur fused into one blob (the d and x of a dx, read as \\omega before)", async () => {
    for (const emPx of [20, 22]) {
      for (const seed of [1, 2, 3, 4]) {
        const symbols = await symbolsFromImage(await scanned('dx', emPx, seed), { classifier });
        expect(symbols.map((s) => s.latex)).toEqual(['d', 'x']);
      }
    }
  });

  it("reads a scan's 1 as 1 with the scan classifier, though the blur took its foot serif (the typeset classifier read l in 8 of these 24)", async () => {
    const scanClassifier = await loadScanClassifier();
    for (const emPx of [19, 21, 23]) {
      for (let seed = 1; seed <= 8; seed++) {
        const symbols = await symbolsFromImage(await scanned('a+1', emPx, seed), { classifier, scanClassifier });
        expect(symbols.map((s) => s.latex)).toEqual(['a', '+', '1']);
      }
    }
  });

  it('reads calligraphic and fraktur letters on a scan with the scan classifier (it had no such classes before)', async () => {
    // A blackboard letter's inner stroke blurs into its outer one at these sizes: \\mathbb{E} reads E about half the time.
    const scanClassifier = await loadScanClassifier();
    for (const emPx of [21, 23]) {
      for (let seed = 1; seed <= 4; seed++) {
        const symbols = await symbolsFromImage(await scanned('\\mathcal{L}+\\mathfrak{g}=\\mathcal{O}(n)', emPx, seed), { classifier, scanClassifier });
        expect(parseLayout(symbols).latex).toBe('\\mathcal{L}+\\mathfrak{g}=\\mathcal{O}(n)');
      }
    }
  });

  it('reads a clean image with the typeset classifier, whatever reads scans', async () => {
    // The handwriting classifier reads type as soup: were it consulted, the reads would differ.
    const scanClassifier = await loadHandwritingClassifier();
    for (const tex of ['x^{\\frac{1}{2}}', 'K_a=10^{-2}']) {
      const image = await formula(tex, 21);
      expect(await symbolsFromImage(image, { classifier, scanClassifier })).toEqual(await symbolsFromImage(image, { classifier }));
    }
  });

  it('returns no symbols for a blank image', async () => {
    const blank = { data: new Uint8Array(100 * 40).fill(255), width: 100, height: 40 };
    expect(await symbolsFromImage(blank, { classifier })).toEqual([]);
  });
});
