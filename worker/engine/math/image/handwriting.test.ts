import { Resvg } from '@resvg/resvg-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { inkImage } from '../../../../models/training/handwriting-ink.js';
import { renderTexSvg } from '../../../../models/training/render-mathjax.js';
import { HANDWRITING_THRESHOLD } from '../../../../page/model.js';
import { parseLayout } from '../layout/index.js';
import { at } from '../../../../test/support/pen-strokes.js';
import type { GrayImage } from '../types.js';
import { SymbolClassifier } from './classifier.js';
import { loadHandwritingClassifier, SURELY_HANDWRITTEN, symbolsFromEitherHand, type ImageClassifiers } from './handwriting.js';

/** A typeset formula (MathJax, resvg) as a greyscale image. */
async function typeset(tex: string): Promise<GrayImage> {
  const rendered = new Resvg(await renderTexSvg(tex, 'tex', { emPx: 24 }), { background: 'white', font: { loadSystemFonts: false } }).render();
  const data = new Uint8Array(rendered.width * rendered.height);
  for (let i = 0; i < data.length; i++) data[i] = rendered.pixels[4 * i + 1]!;
  return { data, width: rendered.width, height: rendered.height };
}

/** Handwritten `2x`: real held-out pen strokes drawn as ink. */
const written = () => inkImage([...at('2', 0, 0, 40), ...at('x', 44, 0, 40)], { penPx: 3, ink: 30, marginPx: 20 });

/**
 * The route between the two real symbol classifiers. Ink kind scores some pdflatex formulas 0.5–0.65
 * (it was trained on MathJax fonts): such an unsure answer must not hand a typeset formula to the
 * handwriting classifier, whose read of type is soup.
 */
describe('symbolsFromEitherHand', () => {
  let classifiers: ImageClassifiers;
  beforeAll(async () => {
    classifiers = { printed: await SymbolClassifier.load({ intraOpThreads: 1 }), handwritten: await loadHandwritingClassifier() };
  });
  const unsure = (HANDWRITING_THRESHOLD + SURELY_HANDWRITTEN) / 2;

  it('reads a typeset formula as print where ink kind is unsure, because the typeset classifier is sure of it', async () => {
    const read = await symbolsFromEitherHand(await typeset('4x-7<2x+5'), classifiers, unsure);
    expect(read.handwritten).toBe(false);
    expect(parseLayout(read.symbols).latex).toBe('4x-7<2x+5');
  });

  it('reads handwriting with the handwriting classifier where ink kind is unsure, and where it is sure', async () => {
    expect((await symbolsFromEitherHand(written(), classifiers, unsure)).handwritten).toBe(true);
    expect((await symbolsFromEitherHand(written(), classifiers, SURELY_HANDWRITTEN)).handwritten).toBe(true);
  });

  it('follows a clear printed answer with the typeset classifier alone', async () => {
    expect((await symbolsFromEitherHand(written(), classifiers, HANDWRITING_THRESHOLD / 2)).handwritten).toBe(false);
  });
});
