import type { MathSymbol } from '../types.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';

/**
 * The classifier knows six horizontal arrows, each of them one em long: it reads `\longrightarrow`
 * as `\rightarrow` and `\iff` (`\Longleftrightarrow`) as `\Leftrightarrow`, for all it sees is the
 * arrow squeezed into a square canvas, where a long double arrow's two shafts may blur into one
 * (`\implies` read `\rightarrow`), and it has no `\Leftarrow` at all. Which way an arrow points is
 * the classifier's to say; its length and how many shafts it has are measured on the ink: an
 * arrow longer than LONG_ASPECT times its height is the long form (TeX's short arrows print 0.9 em
 * of ink 0.54 em tall, 1.7 times as wide as tall; the long ones 1.5 em and more, 2.5 times and more),
 * and an arrow whose shaft columns cross two strokes is the double one. The aspect needs no em: the
 * em an image's glyphs give is short where scripts are most of them (`{}_{6}^{14}C\rightarrow`).
 */
const LONG_ASPECT = 2.1;
/** A `\vec` is half an em wide; one this many ems wide is a long arrow the classifier saw squeezed. */
const VEC_MAX_EM = 1.25;
/** The shaft is measured between these shares of the arrow's width, clear of both heads. */
const SHAFT = [0.35, 0.65] as const;
/** A single shaft is one stroke thick; two strokes and the gap between them, filled in by blur, are thicker. */
const SINGLE_MAX_EM = 0.12;

/** Each arrow's direction and whether it is double and long. */
const ARROWS: Record<string, { way: Way; double: boolean; long: boolean }> = {};
type Way = 'right' | 'left' | 'both' | 'maps';
const FORMS: Record<Way, [single: string, double: string | null, longSingle: string, longDouble: string | null]> = {
  right: ['\\rightarrow', '\\Rightarrow', '\\longrightarrow', '\\Longrightarrow'],
  left: ['\\leftarrow', '\\Leftarrow', '\\longleftarrow', '\\Longleftarrow'],
  both: ['\\leftrightarrow', '\\Leftrightarrow', '\\longleftrightarrow', '\\Longleftrightarrow'],
  maps: ['\\mapsto', null, '\\longmapsto', null],
};
for (const [way, [single, double, longSingle, longDouble]] of Object.entries(FORMS) as [Way, (typeof FORMS)[Way]][]) {
  ARROWS[single] = { way, double: false, long: false };
  ARROWS[longSingle] = { way, double: false, long: true };
  if (double) ARROWS[double] = { way, double: true, long: false };
  if (longDouble) ARROWS[longDouble] = { way, double: true, long: true };
}

/** The arrow `symbol` (read from `group`'s ink) in its measured length and number of shafts; any other symbol unchanged. */
export function measuredArrow(symbol: MathSymbol, group: SymbolGroup, map: ComponentMap, emPx: number): MathSymbol {
  const read = ARROWS[symbol.latex];
  const width = group.box.x1 - group.box.x0;
  if (symbol.latex === '\\vec' && width >= VEC_MAX_EM * emPx) return measuredArrow({ ...symbol, latex: '\\longrightarrow' }, group, map, emPx);
  if (!read) return symbol;
  // Binarisation loses up to a pixel of the heads' thin tips: a script-size `\to` at 150 dpi is 13 by 6 pixels.
  const long = width >= LONG_ASPECT * (group.box.y1 - group.box.y0 + 1);
  const shaft = shaftCount(group, map);
  // Two runs are two shafts; one thin run is one; one thick run may be two shafts the raster filled in: the classifier says.
  const thin = shaft !== undefined && shaft.runs === 1 && shaft.ink <= SINGLE_MAX_EM * emPx;
  const double = FORMS[read.way][1] !== null && (shaft?.runs === 2 ? true : thin ? false : read.double);
  if (long === read.long && double === read.double) return symbol;
  const [single, doubled, longSingle, longDouble] = FORMS[read.way];
  const latex = long ? (double ? longDouble : longSingle) : double ? doubled : single;
  if (!latex) return symbol;
  // The classifier's probability that this is an arrow pointing this way, whatever length and shafts it gave it.
  const sameWay = [symbol, ...(symbol.alternatives ?? [])].filter(
    (reading) => ARROWS[reading.latex]?.way === read.way || (long && read.way === 'right' && reading.latex === '\\vec'),
  );
  const confidence = Math.min(
    1,
    sameWay.reduce((sum, reading) => sum + reading.confidence, 0),
  );
  const alternatives = symbol.alternatives?.filter((reading) => !sameWay.includes(reading));
  return { ...symbol, latex, confidence, ...(alternatives ? { alternatives } : {}) };
}

/**
 * Down the columns of the arrow's shaft, the median number of separate ink runs and of inked
 * pixels; undefined for an arrow too short to have a shaft.
 */
function shaftCount(group: SymbolGroup, map: ComponentMap): { runs: number; ink: number } | undefined {
  const { box } = group;
  const width = box.x1 - box.x0;
  const from = box.x0 + Math.floor(SHAFT[0] * width);
  const to = box.x0 + Math.ceil(SHAFT[1] * width);
  if (to - from < 2) return undefined;
  const ids = new Set(group.parts.map((part) => part.id));
  const runs: number[] = [];
  const inked: number[] = [];
  for (let x = from; x < to; x++) {
    let [count, pixels, inside] = [0, 0, false];
    for (let y = box.y0; y < box.y1; y++) {
      const ink = ids.has(map.labels[y * map.width + x]);
      if (ink && !inside) count++;
      if (ink) pixels++;
      inside = ink;
    }
    runs.push(count);
    inked.push(pixels);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { runs: median(runs), ink: median(inked) };
}
