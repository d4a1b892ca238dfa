import type { InkMask } from '../engine/math/image/binarise.js';
import { withoutSpecks } from './specks.js';
import { joinStacks } from './stacks.js';

/**
 * Rows of a page image found from its ink: runs of pixel rows holding ink, separated by blank
 * rows. A display formula is one such run in most cases (a fraction bar, an integral sign or a
 * tall bracket spans its parts), but a limit under a sum, or a lone fraction whose parts stand
 * clear of the bar, leaves a short run close to a tall one, lying within its columns; those are
 * joined to their neighbour. A line of text is not: its neighbours are about as tall as it is, a
 * line gap away, and a line of prose is wider than the formula it introduces.
 *
 * A script's height and gap are judged against its neighbour's core, the tallest ink run the
 * neighbour began as, never against what the neighbour has grown into: a band that took a script,
 * or a stack of lines around a bar, is taller than any line of its page, so judged by its whole
 * box every next line of text would pass for its script and the band would swallow the page line
 * by line. Measured from the core, a band grows at most one script's height and gap above and
 * below it, as a sum with both its limits does.
 */

export interface Band {
  y0: number;
  /** Exclusive. */
  y1: number;
  x0: number;
  /** Exclusive. */
  x1: number;
}

/** A run shorter than this share of its neighbour's height may be a script, limit or bar of it. */
export const SCRIPT_HEIGHT_RATIO = 0.6;
/** …and is joined to it only when the blank gap between them is under this share of the neighbour's height. */
export const SCRIPT_GAP_RATIO = 0.35;

const height = (b: Band) => b.y1 - b.y0;

/**
 * Ink rows of `mask`, top to bottom, with the parts of stacked formulas (stacks.ts), scripts,
 * limits and bars joined to their row. Specks (specks.ts) are no ink here: a scan's dust would
 * leave ink in every row between its lines.
 */
export function inkBands(page: InkMask): Band[] {
  return rowBands(withoutSpecks(page));
}

/** Ink rows of a mask without specks, joined as `inkBands` joins them. */
export function rowBands(mask: InkMask): Band[] {
  const runs: Band[] = [];
  let open: Band | null = null;
  for (let y = 0; y < mask.height; y++) {
    let x0 = -1;
    let x1 = -1;
    const row = y * mask.width;
    for (let x = 0; x < mask.width; x++) {
      if (!mask.data[row + x]) continue;
      if (x0 < 0) x0 = x;
      x1 = x + 1;
    }
    if (x0 < 0) {
      open = null;
      continue;
    }
    if (open) {
      open.y1 = y + 1;
      open.x0 = Math.min(open.x0, x0);
      open.x1 = Math.max(open.x1, x1);
    } else {
      open = { y0: y, y1: y + 1, x0, x1 };
      runs.push(open);
    }
  }
  return joinScripts(joinStacks(mask, runs), runs);
}

/** A run this much shorter than both its neighbours, close to both, is a bar between them (a fraction's). */
export const BAR_HEIGHT_RATIO = 0.25;

/** Whether `inner` lies within `outer`'s columns, give or take `slack` pixels (a limit may overhang its sum a little). */
const within = (inner: Band, outer: Band, slack: number) => inner.x0 >= outer.x0 - slack && inner.x1 <= outer.x1 + slack;

const join = (a: Band, b: Band): Band => ({ y0: a.y0, y1: b.y1, x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1) });
const close = (upper: Band, lower: Band, ref: Band) => lower.y0 - upper.y1 < SCRIPT_GAP_RATIO * height(ref);

/** A band and its core: the tallest of the ink runs it holds, which scripts are judged against. */
interface Cored {
  band: Band;
  core: Band;
}

/** The taller of two bands, `a` when they are equal. */
const taller = (a: Band, b: Band) => (height(b) > height(a) ? b : a);

/** The tallest of `runs` lying in `band`'s rows (the first of equals), or the band itself when none does. */
function coreOf(band: Band, runs: Band[]): Band {
  const inside = runs.filter((r) => r.y0 >= band.y0 && r.y1 <= band.y1);
  return inside.reduce(taller, inside[0] ?? band);
}

/** The blank rows between `b` and `n`'s core. */
const gapToCore = (b: Cored, n: Cored) => (b.band.y1 <= n.core.y0 ? n.core.y0 - b.band.y1 : b.band.y0 - n.core.y1);

/** Whether `b` may be a script, limit or rule of `n`: short beside `n`'s core, close to that core, within `n`'s columns (a table's rule overhangs its cells). */
function scriptOf(b: Cored, n: Cored): boolean {
  const core = n.core;
  return height(b.band) < SCRIPT_HEIGHT_RATIO * height(core) && gapToCore(b, n) < SCRIPT_GAP_RATIO * height(core) && within(b.band, n.band, height(b.band));
}

/** Joins the first bar found (a run much shorter than the cores of both its neighbours, close to and within it) to both neighbours; whether one was. */
function joinBar(out: Cored[]): boolean {
  for (let i = 1; i + 1 < out.length; i++) {
    const [above, bar, below] = [out[i - 1]!, out[i]!.band, out[i + 1]!];
    const short = height(bar) < BAR_HEIGHT_RATIO * Math.min(height(above.core), height(below.core));
    const near = close(above.band, bar, above.core) && close(bar, below.band, below.core);
    if (short && near && within(above.band, bar, height(above.core)) && within(below.band, bar, height(below.core))) {
      out.splice(i - 1, 3, { band: join(join(above.band, bar), below.band), core: taller(above.core, below.core) });
      return true;
    }
  }
  return false;
}

/**
 * Joins bars to both neighbours and short runs to a close, taller neighbour, shortest first, until
 * none qualifies: a bar is looked for again after each script joins (the upper stroke of an equals
 * sign between a fraction row's numerators and its bars hides the bars until it joins the
 * numerators). `runs`: the unjoined ink runs the bands were made of (stacks.ts joins some), for
 * their cores; without them each band is its own core.
 */
export function joinScripts(bands: Band[], runs: Band[] = bands): Band[] {
  const out: Cored[] = bands.map((b) => ({ band: { ...b }, core: coreOf(b, runs) }));
  for (;;) {
    if (joinBar(out)) continue;
    // A run that may belong to either neighbour goes to the nearer: an accent sits on the row below
    // it (the arrow of a \vec a pixel over its letter), a limit or subscript hangs under the row above.
    let best: { i: number; j: number; h: number; gap: number } | null = null;
    out.forEach((b, i) => {
      for (const j of [i - 1, i + 1]) {
        const n = out[j];
        if (!n || !scriptOf(b, n)) continue;
        const [h, gap] = [height(b.band), gapToCore(b, n)];
        if (!best || h < best.h || (h === best.h && best.i === i && gap < best.gap)) best = { i, j, h, gap };
      }
    });
    if (!best) return out.map((c) => c.band);
    const { i, j } = best;
    const [upper, lower] = [out[Math.min(i, j)]!, out[Math.max(i, j)]!];
    out.splice(Math.min(i, j), 2, { band: join(upper.band, lower.band), core: out[j]!.core });
  }
}
