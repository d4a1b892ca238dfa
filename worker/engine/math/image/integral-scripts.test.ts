import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * An integral's lower script starting with a minus, typeset by pdflatex: TeX pulls it left under
 * the sign's tail, so at 150 dpi the `-` alone passed for a limit set under the sign and the rest
 * of the script for a `\sideset` (`\sideset{}_{a}^{b}\int_{-}f`). Limits that `\limits` centres
 * under the sign stay limits (layout/limits.ts).
 */
describe("symbolsFromImage: an integral's scripts that start under its tail", () => {
  const formulas = ['\\int_{-a}^{b}f', '\\int_{-\\infty}^{+\\infty}e^{-x^{2}}dx', '\\int\\limits_{-1}^{1}f', '\\int\\limits_{a}^{b}g'];
  const images = formulaImages(formulas, 'calculus');

  for (const dpi of [150, 300] as const) {
    it(`reads them as scripts, and centred limits as limits (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
