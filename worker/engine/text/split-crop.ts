import type { Crop, LineRead } from './recognize.js';
import { blankColumns, cropHeight, longestRun } from './word-spaces.js';

/**
 * Long line crops read in pieces cut at word gaps. The CPU recogniser's cost per column grows
 * with the crop's width (onnxruntime, one thread, the Latin recogniser: about 50 µs a column at
 * 240–320 columns, 57 at 640–800, 66–68 at 1000–1600, 76 at 2000), and a 200 dpi page's lines are
 * 1,000–1,600 columns once scaled to the recogniser's 48 rows; PP-OCR's recogniser was trained on
 * crops 320 columns wide. A crop wider than SPLIT_ABOVE is cut at the widest run of blank columns
 * (word-spaces.ts) in each stretch of PIECE_MIN..PIECE_MAX columns, when that run is at least a word
 * space wide; the pieces' reads are joined with a space, so a piece's text, confidence and
 * character columns are those of the line.
 */

/** Crops at most this wide are read whole. */
export const SPLIT_ABOVE = 720;
/** A piece's width range; a cut is looked for in it. */
const PIECE_MIN = 240;
const PIECE_MAX = 640;
/** The narrowest blank run taken for a word gap, as a share of the crop's height (a word space is about a quarter to a third of the font size). */
const MIN_GAP_SHARE = 0.15;

/** The columns [from, to) of `crop` as a crop of their own, with its place in the source image. */
export function cropColumns(crop: Crop, from: number, to: number): Crop {
  const c = crop.channels;
  const height = crop.pixels.length / c / crop.width;
  const width = to - from;
  const pixels = Buffer.allocUnsafe(height * width * c);
  for (let y = 0; y < height; y++) crop.pixels.copy(pixels, y * width * c, (y * crop.width + from) * c, (y * crop.width + to) * c);
  const scale = crop.sourceWidth / crop.width;
  return { pixels, channels: c, width, left: crop.left + from * scale, sourceWidth: width * scale, allowed: crop.allowed };
}

/** Columns at which to cut `crop` (each the middle of a blank run); none when it is read whole. */
export function cutColumns(crop: Crop): number[] {
  if (crop.width <= SPLIT_ABOVE) return [];
  const blank = blankColumns(crop);
  if (!blank) return [];
  const minGap = Math.max(2, Math.round(MIN_GAP_SHARE * cropHeight(crop)));
  const cuts: number[] = [];
  let start = 0;
  while (crop.width - start > SPLIT_ABOVE) {
    const end = Math.min(crop.width - PIECE_MIN, start + PIECE_MAX);
    const run = longestRun(blank, start + PIECE_MIN, end);
    if (run.length < minGap) {
      // No word gap in this stretch (a long formula, a rule): look on from its end.
      start = end;
      continue;
    }
    cuts.push(run.middle);
    start = run.middle;
  }
  return cuts;
}

/** `crop` as the pieces cutColumns finds, in order (itself alone when it is read whole). */
export function splitCrop(crop: Crop): Crop[] {
  const cuts = cutColumns(crop);
  if (!cuts.length) return [crop];
  const edges = [0, ...cuts, crop.width];
  return cuts.map((_, i) => cropColumns(crop, edges[i]!, edges[i + 1]!)).concat(cropColumns(crop, cuts.at(-1)!, crop.width));
}

/** The reads of one line's pieces as the line's read: texts joined by a space, confidence over all their characters. */
export function joinReads(reads: LineRead[]): LineRead {
  if (reads.length === 1) return reads[0]!;
  const out: LineRead = { text: '', confidence: 0, chars: [], spans: [] };
  let weighted = 0;
  for (const r of reads) {
    const text = r.text.trim();
    if (!text) continue;
    // The piece's own leading and trailing spaces go: the join puts one space between pieces.
    const first = r.spans.findIndex((s) => s.char.trim() !== '');
    const last = r.spans.findLastIndex((s) => s.char.trim() !== '');
    const spans = r.spans.slice(first, last + 1);
    if (out.spans.length) {
      const previous = out.spans.at(-1)!;
      out.text += ' ';
      out.spans.push({ char: ' ', x0: previous.x1, x1: Math.max(previous.x1, spans[0]!.x0), p: 1 });
      out.chars.push({ char: ' ', first: -1, last: -1, p: 1 });
    }
    out.text += text;
    out.spans.push(...spans);
    out.chars.push(...r.chars.slice(first, last + 1));
    weighted += r.confidence * r.chars.length;
  }
  const counted = reads.reduce((n, r) => n + (r.text.trim() ? r.chars.length : 0), 0);
  out.confidence = counted ? weighted / counted : 0;
  return out;
}
