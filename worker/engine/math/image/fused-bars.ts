import type { Box } from '../types.js';
import type { Component, ComponentMap } from './components.js';
import { isRadicalLike, longestRun, rowSpan } from './shape.js';

/** A bar row is inked in one run across this fraction of the component's width. */
const BAR_FILL = 0.9;
/** A fraction bar with what the raster fused to it is at least this many times wider than tall (T is about as wide as tall, 7 narrower). */
const MIN_FLATNESS = 1.5;
/** A radical's vinculum row is inked in one run across this fraction of its width (the sign takes the rest). */
const VINCULUM_SHARE = 0.4;
/** What hangs off the bar is at most this fraction of its width: a fraction's part that is as wide as the bar is its own glyph's bar. */
const MAX_PIECE_SHARE = 0.75;

/**
 * Takes a fraction bar (or a minus) apart from the glyphs the raster fused to it. At 150 dpi a
 * script-size fraction's bar sits a pixel from its denominator, and anti-aliasing joins the two
 * (`e^{-\frac{E_a}{RT}}`: one blob of bar, R and T the classifier reads as `=`); the merge step
 * then also takes in every glyph lying inside that blob's box. The bar is the band of rows inked
 * across nearly the whole blob; what hangs off it falls apart into pieces once those rows are
 * gone, and each piece becomes a component of its own (its pixels relabelled in `map`), so that
 * merging, classification and the enlarged reads of small glyphs see a RULE and whole glyphs.
 *
 * Only blobs the classifier read unsurely are tried (`candidates`: a sure ⇌ or → is a bar with a
 * barb or a head), and only taken apart when they cannot be one glyph with a bar: flat (T, 7, Π, ⊤
 * are about as wide as tall), not a radical (its vinculum), with every piece narrower than the bar
 * and within its span (an arrow's head ends where its shaft does), and no pieces facing each other
 * across it (an arrow's barbs, ±, ∓ sit above and below at one x). Returns whether any was.
 * Mutates `map`: new components are appended, the bar keeps the blob's id.
 */
export function separateFusedBars(map: ComponentMap, candidates: readonly Component[]): boolean {
  let separated = false;
  for (const c of candidates) {
    const pieces = fusedPieces(c, map);
    if (pieces) relabel(c, pieces, map);
    separated ||= pieces !== null;
  }
  return separated;
}

interface Piece {
  pixels: number[];
  box: Box;
}

function fusedPieces(c: Component, map: ComponentMap): Piece[] | null {
  const { x0, x1, y0, y1 } = c.box;
  const w = x1 - x0;
  const radicand = radicandPieces(c, map);
  if (radicand || isRadicalLike(c, map)) return radicand;
  const underArrow = arrowPieces(c, map);
  if (underArrow) return underArrow;
  if (w < 8 || w < MIN_FLATNESS * (y1 - y0)) return null;
  const { top, bottom } = barBand(c, map);
  // Only one band, at most a few pixels thick, and ink beyond it.
  if (top === y1 || bottom - top > Math.max(2, 0.25 * (y1 - y0)) || (top === y0 && bottom === y1)) return null;
  for (let y = bottom; y < y1; y++) if (longestRun(c, map, y) >= BAR_FILL * w) return null;
  const pieces = piecesOff(c, map, top, bottom);
  if (!pieces.length) return null;
  const inside = pieces.every((p) => p.box.x0 > x0 && p.box.x1 < x1 && p.box.x1 - p.box.x0 <= MAX_PIECE_SHARE * w);
  const above = pieces.filter((p) => p.box.y1 <= top);
  const below = pieces.filter((p) => p.box.y0 >= bottom);
  const facing = above.some((a) => below.some((b) => Math.min(a.box.x1, b.box.x1) > Math.max(a.box.x0, b.box.x0)));
  return inside && !facing ? pieces : null;
}

/**
 * What hangs from a radical's vinculum apart from its sign: a radicand's superscript set close under
 * the vinculum (`\sqrt{b^2-4ac}`'s 2) that the raster joined to it, or null when `c` is no radical
 * so fused. Below the vinculum (rows inked from the sign's tip to the right end, at the top) the
 * sign's hook is the piece that reaches the bottom at the left, the vinculum starting over its
 * right part; pieces right of the hook that end higher up are glyphs.
 */
function radicandPieces(c: Component, map: ComponentMap): Piece[] | null {
  const { x0, x1, y0, y1 } = c.box;
  const w = x1 - x0;
  let top = y0;
  while (top < y1 && longestRun(c, map, top) < VINCULUM_SHARE * w) top++;
  let bottom = top;
  while (bottom < y1 && longestRun(c, map, bottom) >= VINCULUM_SHARE * w) bottom++;
  if (top === y1 || top - y0 > 2 || bottom - top > 3) return null;
  const vinculum = rowSpan(c, map, top, top + 1);
  if (!vinculum || vinculum.x1 < x1) return null;
  const below = piecesOff(c, map, top, bottom).filter((p) => p.box.y0 >= bottom);
  const hook = below.reduce<Piece | null>((lowest, p) => (!lowest || p.box.y1 > lowest.box.y1 ? p : lowest), null);
  if (!hook || hook.box.y1 < y1 || hook.box.x0 > x0 + 1 || vinculum.x0 < hook.box.x0 + 0.6 * (hook.box.x1 - hook.box.x0)) return null;
  const hanging = below.filter((p) => p !== hook && p.box.x0 > hook.box.x1 && p.box.y1 < y1 - 0.25 * (y1 - y0));
  return hanging.length ? hanging : null;
}

/** The first band of rows inked in one run across nearly the whole of `c` (BAR_FILL): [top, bottom), top = y1 when there is none. */
function barBand(c: Component, map: ComponentMap): { top: number; bottom: number } {
  const w = c.box.x1 - c.box.x0;
  let top = c.box.y0;
  while (top < c.box.y1 && longestRun(c, map, top) < BAR_FILL * w) top++;
  let bottom = top;
  while (bottom < c.box.y1 && longestRun(c, map, bottom) >= BAR_FILL * w) bottom++;
  return { top, bottom };
}

/** The 8-connected pieces of `c`'s ink outside rows [top, bottom) and the pixels `kept` keeps with `c`. */
function piecesOff(c: Component, map: ComponentMap, top: number, bottom: number, kept: (i: number) => boolean = () => false): Piece[] {
  const seen = new Set<number>();
  const pieces: Piece[] = [];
  const ink = (x: number, y: number) =>
    x >= c.box.x0 &&
    x < c.box.x1 &&
    y >= c.box.y0 &&
    y < c.box.y1 &&
    (y < top || y >= bottom) &&
    map.labels[y * map.width + x] === c.id &&
    !kept(y * map.width + x);
  for (let y = c.box.y0; y < c.box.y1; y++) {
    for (let x = c.box.x0; x < c.box.x1; x++) {
      const start = y * map.width + x;
      if (seen.has(start) || !ink(x, y)) continue;
      const piece: Piece = { pixels: [], box: { x0: x, y0: y, x1: x + 1, y1: y + 1 } };
      const stack = [start];
      seen.add(start);
      while (stack.length) {
        const i = stack.pop()!;
        const px = i % map.width;
        const py = (i - px) / map.width;
        piece.pixels.push(i);
        piece.box = { x0: Math.min(piece.box.x0, px), y0: Math.min(piece.box.y0, py), x1: Math.max(piece.box.x1, px + 1), y1: Math.max(piece.box.y1, py + 1) };
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const j = i + dy * map.width + dx;
            if (!seen.has(j) && ink(px + dx, py + dy)) {
              seen.add(j);
              stack.push(j);
            }
          }
        }
      }
      pieces.push(piece);
    }
  }
  return pieces;
}

/** Gives each piece a new component id and shrinks `c` to the bar that is left. */
function relabel(c: Component, pieces: Piece[], map: ComponentMap): void {
  for (const piece of pieces) {
    const id = map.components.length + 1;
    for (const i of piece.pixels) map.labels[i] = id;
    map.components.push({ id, box: piece.box, area: piece.pixels.length });
  }
  let box: Box | null = null;
  let area = 0;
  for (let y = c.box.y0; y < c.box.y1; y++) {
    for (let x = c.box.x0; x < c.box.x1; x++) {
      if (map.labels[y * map.width + x] !== c.id) continue;
      area++;
      box = box
        ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) }
        : { x0: x, y0: y, x1: x + 1, y1: y + 1 };
    }
  }
  c.box = box!;
  c.area = area;
}

/** The shaft of an arrow over glyphs lies in this top share of the blob… */
const ARROW_TOP_SHARE = 0.4;
/** …and the rows along its edges are inked for this share of the width. */
const SHAFT_EDGE = 0.4;
/** An arrow's head lies within this share of its width at one end. */
const HEAD_SHARE = 0.3;

/**
 * What an arrow over glyphs (`\overrightarrow{PQ}`) has fused to it: at 150 and 300 dpi its head's
 * lower barb touches the glyph under it, and the classifier reads arrow and glyphs as one letter
 * (`m`, `W`). The shaft is the band inked across the blob near its top, with ink above it at one
 * end only (the upper barb); the lower barb mirrors the upper one across the shaft and stays with
 * the arrow; everything else below the shaft is glyphs. Null when `c` is no such arrow.
 */
function arrowPieces(c: Component, map: ComponentMap): Piece[] | null {
  const { x0, x1, y0, y1 } = c.box;
  const w = x1 - x0;
  if (w < 8) return null;
  let { top, bottom } = barBand(c, map);
  if (top === y1) return null;
  // The shaft's anti-aliased edge rows run along most of it too.
  while (top > y0 && longestRun(c, map, top - 1) >= SHAFT_EDGE * w) top--;
  while (bottom < y1 && longestRun(c, map, bottom) >= SHAFT_EDGE * w) bottom++;
  if (bottom - top > 4 || bottom - y0 > ARROW_TOP_SHARE * (y1 - y0)) return null;
  const above = piecesOff(c, map, top, bottom).filter((p) => p.box.y1 <= top);
  if (above.length !== 1) return null;
  const barb = above[0]!;
  // One head, at one end (its point may reach past the barb).
  if (barb.box.x0 < x1 - HEAD_SHARE * w && barb.box.x1 > x0 + HEAD_SHARE * w) return null;
  // The lower barb: the upper one mirrored across the shaft, a pixel's slack around it.
  const mirrored = new Set<number>();
  for (const i of barb.pixels) {
    const x = i % map.width;
    const y = top + bottom - 1 - (i - x) / map.width;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) mirrored.add((y + dy) * map.width + x + dx);
  }
  const depth = top - barb.box.y0;
  const glyphs = piecesOff(c, map, top, bottom, (i) => mirrored.has(i)).filter((p) => p.box.y0 >= bottom && p.box.y1 - p.box.y0 > depth);
  return glyphs.length ? glyphs : null;
}
