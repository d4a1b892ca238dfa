import { z } from 'zod';
import { loadModelFile } from '../../models.js';
import type { GrayImage, MathSymbol } from '../types.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';

/**
 * Bold letters in a typeset image. The classifier reads a bold `x` as `x` (it learnt shapes with
 * their stroke weight varied on purpose), so the weight is measured apart: a glyph's stem width over
 * its height, against the same ratio of that class drawn regular (a table fitted offline on regular
 * pdflatex renders, models/training/fit-stem-widths.ts → models/math-stems.json). In the held-out
 * formula images a bold letter weighed 1.4–1.9× its class, regular letters at the main size
 * 0.9–1.2×. A glyph is bold when its ratio is well above its class's AND well above the formula's
 * other glyphs' (a heavier font as a whole is not bold), and large enough to measure.
 */

export const STEM_TABLE_ID = 'math-stems';

const StemTableSchema = z.object({
  /** Per class (a letter, `\mathrm{x}` for its upright shape, a digit, a Greek letter): the regular stem width over the glyph's height. */
  ratios: z.record(z.string(), z.number().positive()),
});
export type StemTable = z.infer<typeof StemTableSchema>;

/** A glyph's stem ratio over its class's regular one from which it reads as bold. */
export const BOLD_OVER_CLASS = 1.3;
/** …and over the median of the formula's regular-looking glyphs. */
export const BOLD_OVER_FORMULA = 1.4;
/** Glyphs shorter than this (in pixels) have stems of a pixel or two: too coarse to weigh. */
export const MIN_WEIGHED_HEIGHT_PX = 8;
/** The share of a glyph's ink pixels whose stroke is thinner than its stem width (the rest are the thick parts). */
const STEM_QUANTILE = 0.8;

/** The classifier classes a stem ratio is kept for: letters, digits and Greek letters. */
export function stemKey(symbol: Pick<MathSymbol, 'latex' | 'style'>): string | null {
  if (/^[A-Za-z]$/u.test(symbol.latex)) return symbol.style === 'upright' ? `\\mathrm{${symbol.latex}}` : symbol.latex;
  if (/^[0-9]$/u.test(symbol.latex)) return symbol.latex;
  return /^\\(?:var)?(?:[a-z]+|[A-Z][a-z]+)$/u.test(symbol.latex) && GREEK.has(symbol.latex.replace('\\var', '\\')) ? symbol.latex : null;
}

const GREEK = new Set(
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega'
    .split(' ')
    .map((name) => `\\${name}`),
);

/**
 * The stem width of a glyph in pixels: for each of its ink pixels, the darkness summed across its
 * stroke (the ink run through it plus the grey pixel at each end) in the narrowest of four
 * directions, a diagonal run counted √2 a step; then the STEM_QUANTILE of those widths, so
 * hairlines and serifs do not count. Grey sums measure a stroke to a fraction of a pixel.
 */
export function stemWidth(image: GrayImage, map: ComponentMap, group: SymbolGroup): number {
  const { width, height, labels } = map;
  const ids = new Set(group.parts.map((part) => part.id));
  const { x0, y0, x1, y1 } = group.box;
  const w = x1 - x0;
  const h = y1 - y0;
  const ink = new Uint8Array(w * h);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink[(y - y0) * w + (x - x0)] = ids.has(labels[y * width + x]!) ? 1 : 0;
  const inside = (x: number, y: number) => x >= x0 && x < x1 && y >= y0 && y < y1 && ink[(y - y0) * w + (x - x0)] === 1;
  const darkness = (x: number, y: number) => (x >= 0 && y >= 0 && x < width && y < height ? (255 - image.data[y * width + x]!) / 255 : 0);
  // Per pixel of the box, the narrowest run through it so far; each direction walks every line of the box once.
  const narrowest = new Float64Array(w * h).fill(Infinity);
  const walk = (startX: number, startY: number, dx: number, dy: number, step: number) => {
    let x = startX;
    let y = startY;
    let sum = 0;
    let first = -1;
    let length = 0;
    const close = () => {
      const total = (sum + darkness(x, y)) * step;
      for (let k = 0; k < length; k++) {
        const i = (first + k * (dy * w + dx)) | 0;
        if (total < narrowest[i]!) narrowest[i] = total;
      }
      length = 0;
    };
    for (; x >= x0 - 1 && x <= x1 && y >= y0 - 1 && y <= y1; x += dx, y += dy) {
      if (inside(x, y)) {
        if (!length) {
          sum = darkness(x - dx, y - dy);
          first = (y - y0) * w + (x - x0);
        }
        sum += darkness(x, y);
        length++;
      } else if (length) close();
    }
    if (length) close();
  };
  for (let y = y0; y < y1; y++) walk(x0, y, 1, 0, 1);
  for (let x = x0; x < x1; x++) walk(x, y0, 0, 1, 1);
  // Diagonals start from the top row and the left (down-right) or right (down-left) column.
  for (let x = x0; x < x1; x++) walk(x, y0, 1, 1, Math.SQRT2);
  for (let y = y0 + 1; y < y1; y++) walk(x0, y, 1, 1, Math.SQRT2);
  for (let x = x0; x < x1; x++) walk(x, y0, -1, 1, Math.SQRT2);
  for (let y = y0 + 1; y < y1; y++) walk(x1 - 1, y, -1, 1, Math.SQRT2);
  const widths: number[] = [];
  for (let i = 0; i < ink.length; i++) if (ink[i]) widths.push(narrowest[i]!);
  widths.sort((a, b) => a - b);
  return widths[Math.floor(widths.length * STEM_QUANTILE)] ?? 0;
}

/** A glyph's stem width over its height, or null where it is too small to weigh. */
export function stemRatio(image: GrayImage, map: ComponentMap, group: SymbolGroup): number | null {
  const height = group.box.y1 - group.box.y0;
  return height < MIN_WEIGHED_HEIGHT_PX ? null : stemWidth(image, map, group) / height;
}

/** A glyph whose own em is under this share of the formula's largest is a script: small sizes are drawn relatively heavier. */
export const MAIN_SIZE = 0.85;

/**
 * The symbols with the bold ones styled: an upright letter or a digit becomes `bold` (`\mathbf`), an
 * italic letter or a Greek one `bold-italic` (`\boldsymbol`). Only glyphs at the formula's main size
 * are weighed: a glyph's own em is its height over its class's typical height in em
 * (`typicalHeightEm`, the classifier's labels), the main size the largest of them. A glyph is bold
 * when its stem ratio over its class's regular one is at least BOLD_OVER_CLASS and at least
 * BOLD_OVER_FORMULA times the median over the formula's glyphs under BOLD_OVER_CLASS when two or
 * more are (where none is, the median of all it weighed when three or more; else 1).
 */
export function markBold(
  image: GrayImage,
  map: ComponentMap,
  glyphs: readonly { symbol: MathSymbol; group: SymbolGroup }[],
  table: StemTable,
  typicalHeightEm: (key: string) => number | undefined,
): MathSymbol[] {
  const measured = glyphs.map(({ symbol, group }) => {
    const key = symbol.style === undefined || symbol.style === 'upright' ? stemKey(symbol) : null;
    // An upright letter the fit never saw upright is weighed against its italic shape, and the other way round.
    const regular = key ? (table.ratios[key] ?? table.ratios[symbol.latex] ?? table.ratios[`\\mathrm{${symbol.latex}}`]) : undefined;
    const typical = key ? (typicalHeightEm(key) ?? typicalHeightEm(symbol.latex)) : undefined;
    return regular && typical ? { regular, em: (group.box.y1 - group.box.y0) / typical } : null;
  });
  const mainEm = Math.max(0, ...measured.map((m) => m?.em ?? 0));
  const weights = measured.map((m, i) => {
    if (!m || m.em < MAIN_SIZE * mainEm) return null;
    const ratio = stemRatio(image, map, glyphs[i]!.group);
    return ratio === null ? null : ratio / m.regular;
  });
  const weighed = weights.filter((w): w is number => w !== null).sort((a, b) => a - b);
  const plain = weighed.filter((w) => w < BOLD_OVER_CLASS);
  // A formula of three or more glyphs all heavier than their classes is set in a heavier font, not all bold.
  const reference =
    plain.length >= 2 ? plain[Math.floor(plain.length / 2)]! : !plain.length && weighed.length >= 3 ? weighed[Math.floor(weighed.length / 2)]! : 1;
  return glyphs.map(({ symbol }, i) => {
    const weight = weights[i];
    if (weight === null || weight === undefined || weight < BOLD_OVER_CLASS || weight < BOLD_OVER_FORMULA * reference) return symbol;
    const upright = symbol.style === 'upright' || /^[0-9]$/u.test(symbol.latex);
    return { ...symbol, style: upright ? 'bold' : 'bold-italic' };
  });
}

let shared: Promise<StemTable> | undefined;

/** The shipped stem table, read and checked against the manifest once. */
export function loadStemTable(): Promise<StemTable> {
  shared ??= loadModelFile(STEM_TABLE_ID)
    .then(({ bytes }) => StemTableSchema.parse(JSON.parse(bytes.toString('utf8'))))
    .catch((err: unknown) => {
      shared = undefined;
      throw err;
    });
  return shared;
}
