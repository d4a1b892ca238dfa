import { OVERBRACE, UNDERBRACE, type Box } from '../types.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';

/**
 * Wide marks over or under several glyphs, told apart by the shape of their ink: the classifier
 * sees them squeezed into a square crop, where a brace, a wide hat, a wide tilde and an arrow all
 * look alike (a brace read `\leftarrow` at 0.12), and at 150 dpi a wide hat is flat enough for the
 * merge step to call it a rule.
 */

/** A horizontal brace is at least this many times as wide as it is tall… */
const BRACE_ASPECT = 3;
/** …and a wide accent this many (a lone `\frown` or `\sim` is narrower, and has no glyph under it). */
const ACCENT_ASPECT = 3.5;
/** Share of the width at each end where a brace curls toward its body… */
const END_SHARE = 0.08;
/** …and about the middle where its tip points toward its label. */
const TIP_SHARE = 0.06;
/** The tip and the ends reach the box's far side (within this share of its height)… */
const REACH = 0.2;
/** …and stop short of the other side by at least this share. */
const SHORT = 0.3;
/** Between them the shaft runs level: its centre moves at most this share of the height (a wide hat's sides climb). */
const LEVEL = 0.15;
/** A wide hat's peak stands this share of its height above its ends; a tilde's crest and trough part by as much. */
const RISE = 0.35;
/** Each step of a hat's climb rises at least this share of the height. */
const STEP = 0.08;

type Extent = { top: number; bottom: number; centre: number };

/** The rows (as shares of the box's height) the group's ink fills between columns [from, to). */
function extentOf(group: SymbolGroup, map: ComponentMap): (from: number, to: number) => Extent {
  const { x0, y0, y1 } = group.box;
  const height = y1 - y0;
  const ids = new Set(group.parts.map((part) => part.id));
  return (from, to) => {
    let [top, bottom, sum, count] = [Infinity, -Infinity, 0, 0];
    for (let x = Math.max(x0, Math.floor(from)); x < Math.min(group.box.x1, Math.ceil(to)); x++) {
      for (let y = y0; y < y1; y++) {
        if (!ids.has(map.labels[y * map.width + x])) continue;
        top = Math.min(top, (y - y0) / height);
        bottom = Math.max(bottom, (y + 1 - y0) / height);
        sum += (y + 0.5 - y0) / height;
        count++;
      }
    }
    return { top, bottom, centre: count ? sum / count : NaN };
  };
}

/**
 * `\overbrace` or `\underbrace` from the shape of a flat glyph, or null. A brace's tip in the
 * middle and its two curled ends point to opposite sides of a level shaft: an overbrace's tip up
 * (to its label) and its ends down (to its body), an underbrace the other way up. An arrow's head
 * reaches both sides at one end and its tail neither, and a wide hat has no level shaft between
 * its tip and its ends, so neither is taken for one.
 */
export function horizontalBrace(group: SymbolGroup, map: ComponentMap): typeof OVERBRACE | typeof UNDERBRACE | null {
  const { x0 } = group.box;
  const [width, height] = [group.box.x1 - x0, group.box.y1 - group.box.y0];
  if (height < 3 || width < BRACE_ASPECT * height) return null;
  const extent = extentOf(group, map);
  const shaft = [0.25, 0.4, 0.6, 0.75].map((at) => extent(x0 + at * width - 1, x0 + at * width + 1).centre);
  if (shaft.some(Number.isNaN) || Math.max(...shaft) - Math.min(...shaft) > LEVEL) return null;
  // The shaft runs between the tip's side and the ends': a radical's vinculum with the `<` after
  // it (a hook down at one end, a point at the other) runs along the top.
  if (shaft.some((centre) => centre < REACH || centre > 1 - REACH)) return null;
  const end = Math.max(2, width * END_SHARE);
  const tip = Math.max(1, width * TIP_SHARE);
  const ends = [extent(x0, x0 + end), extent(group.box.x1 - end, group.box.x1)];
  const middle = extent(x0 + width / 2 - tip, x0 + width / 2 + tip);
  const reachesTop = (e: Extent) => e.top <= REACH;
  const reachesBottom = (e: Extent) => e.bottom >= 1 - REACH;
  const shortOfTop = (e: Extent) => e.top >= SHORT;
  const shortOfBottom = (e: Extent) => e.bottom <= 1 - SHORT;
  if (reachesTop(middle) && shortOfBottom(middle) && ends.every((e) => reachesBottom(e) && shortOfTop(e))) return OVERBRACE;
  if (reachesBottom(middle) && shortOfTop(middle) && ends.every((e) => reachesTop(e) && shortOfBottom(e))) return UNDERBRACE;
  return null;
}

/**
 * `\hat` or `\tilde` from the shape of a wide flat mark over glyphs, or null (the layout widens
 * it over what it spans). Down the mark's columns the ink's centre row climbs steadily from both
 * ends to a peak in the middle for a hat; for a tilde it rises to a crest in the left half, falls
 * to a trough in the right and rises again. A bar, an arrow's shaft or a brace's stays level.
 */
export function wideAccent(group: SymbolGroup, map: ComponentMap, glyphs: readonly Box[]): '\\hat' | '\\tilde' | null {
  const { x0, x1, y1 } = group.box;
  const [width, height] = [x1 - x0, y1 - group.box.y0];
  if (height < 3 || width < ACCENT_ASPECT * height) return null;
  const over = glyphs.some((box) => box.y0 >= y1 - 1 && Math.min(box.x1, x1) - Math.max(box.x0, x0) > 0.25 * (box.x1 - box.x0));
  if (!over) return null;
  const extent = extentOf(group, map);
  const c = [0.04, 0.25, 0.5, 0.75, 0.96].map((at) => extent(x0 + at * width - 1, x0 + at * width + 1).centre);
  if (c.some(Number.isNaN)) return null;
  const [left, quarter, middle, threeQuarters, right] = c;
  const climbs = (a: number, b: number) => a - b >= STEP;
  if (
    climbs(left, quarter) &&
    climbs(quarter, middle) &&
    climbs(right, threeQuarters) &&
    climbs(threeQuarters, middle) &&
    Math.min(left, right) - middle >= RISE
  ) {
    return '\\hat';
  }
  if (left - quarter >= RISE / 2 && threeQuarters - quarter >= RISE && threeQuarters - right >= RISE / 2) return '\\tilde';
  return null;
}

/**
 * Joins the two halves of a brace that the raster parted at its tip or beside a curled end (TeX
 * sets a brace from pieces and rules; at 300 dpi a pixel's gap can open between them): two
 * neighbours side by side, on the same rows, at least one of them flat, whose union has a brace's
 * shape become one group. Returns `items`
 * otherwise unchanged, the joined group's label dropped (the shape names it).
 */
export function joinBraceHalves<T extends { group: SymbolGroup }>(items: readonly T[], map: ComponentMap, unlabelled: (group: SymbolGroup) => T): T[] {
  const flat = (g: SymbolGroup) => g.box.x1 - g.box.x0 >= 2 * (g.box.y1 - g.box.y0);
  const out = [...items];
  for (let i = 0; i < out.length; i++) {
    const a = out[i].group;
    for (let j = 0; j < out.length; j++) {
      const b = out[j].group;
      // One of the two may be a curled end alone, about as tall as wide.
      if (i === j || (!flat(a) && !flat(b)) || b.box.x0 < a.box.x1 - 1) continue;
      const gap = b.box.x0 - a.box.x1;
      const rows = Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
      if (gap > Math.max(2, 0.3 * (a.box.y1 - a.box.y0)) || rows < 0.5 * Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0)) continue;
      const box = { x0: a.box.x0, y0: Math.min(a.box.y0, b.box.y0), x1: b.box.x1, y1: Math.max(a.box.y1, b.box.y1) };
      const joined: SymbolGroup = { parts: [...a.parts, ...b.parts], box, rule: false };
      if (!horizontalBrace(joined, map)) continue;
      out[i] = unlabelled(joined);
      out.splice(j, 1);
      i = -1;
      break;
    }
  }
  return out;
}
