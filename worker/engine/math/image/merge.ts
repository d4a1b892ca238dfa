import type { Box } from '../types.js';
import type { Component, ComponentMap } from './components.js';
import { isFlat, isFrame, isRadicalLike, isRule, longestRun, rowSpan, strokeWidth } from './shape.js';

/** One symbol's worth of ink: the components that draw it, and whether it is a RULE (or a `\boxed` FRAME). */
export interface SymbolGroup {
  parts: Component[];
  box: Box;
  rule: boolean;
  frame?: true;
}

const w = (b: Box): number => b.x1 - b.x0;
const h = (b: Box): number => b.y1 - b.y0;
const cx = (b: Box): number => (b.x0 + b.x1) / 2;
const overlapX = (a: Box, b: Box): number => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });

/**
 * Joins the components of multi-part symbols by geometry alone, then marks single straight bars
 * as RULE. Each rule below matches one family of glyphs; the guards keep fractions, accents and
 * radicands apart from what they resemble. Components smaller than a speck of noise are dropped.
 * Groups come out left to right.
 */
export function mergeComponents(map: ComponentMap): SymbolGroup[] {
  const stroke = strokeWidth(map);
  const speck = Math.max(2, 0.35 * stroke * stroke);
  const large = map.components.filter((c) => c.area >= speck);
  let parts = large;
  const memo = new Map<number, { rule: boolean; radical: boolean; frame: boolean }>();
  const traits = (c: Component) => {
    let t = memo.get(c.id);
    if (!t) memo.set(c.id, (t = { rule: isRule(c, map), radical: isRadicalLike(c, map), frame: isFrame(c, map, stroke) }));
    return t;
  };
  /**
   * A compact filled blob a few strokes wide (the dot of i, j, :, ;, !, ?, ÷), or small beside
   * `partner` — the stroke estimate of a hairline font understates how big its dots are.
   */
  const isDot = (c: Component, partner?: Component): boolean => {
    const size = Math.max(w(c.box), h(c.box));
    const side = Math.min(w(c.box), h(c.box));
    const small = size <= Math.max(3, 3 * stroke) || (partner !== undefined && size <= 0.35 * Math.max(w(partner.box), h(partner.box)));
    // A 1×2 pixel dot at 150 dpi is as round as a raster allows; enlarged twice (the confidence
    // model's second read, a zoomed screenshot) it stays a solid 3×5, where a 5×3 hat is hollow.
    const fill = c.area / (w(c.box) * h(c.box));
    const round = size <= Math.max(1.6 * side, side + 1) || (3 * size <= 5 * side && fill >= 0.8);
    return small && round && fill >= 0.55;
  };
  /**
   * The nearest component above (`dir` -1) or below (+1) `c` that overlaps it horizontally, looking
   * past flat marks narrower than `c` (the minus of an exponent next to a fraction bar).
   */
  const nearestVertical = (c: Component, dir: -1 | 1): { other: Component; gap: number } | null => {
    let best: { other: Component; gap: number } | null = null;
    for (const o of parts) {
      if (o === c || overlapX(o.box, c.box) <= 0 || (isFlat(o) && w(o.box) < w(c.box))) continue;
      const gap = dir > 0 ? o.box.y0 - c.box.y1 : c.box.y0 - o.box.y1;
      if (gap >= 0 && (!best || gap < best.gap)) best = { other: o, gap };
    }
    return best;
  };

  /** i j ; (dot above a narrow top) and ! ? (dot below a narrow bottom). */
  const dotAndStem = (dot: Component, stem: Component): boolean => {
    if (!isDot(dot, stem) || isFlat(stem)) return false;
    const size = Math.max(w(dot.box), h(dot.box));
    if (h(stem.box) < 1.6 * size) return false;
    const above = dot.box.y1 <= stem.box.y0 + 1;
    const gap = above ? stem.box.y0 - dot.box.y1 : dot.box.y0 - stem.box.y1;
    if (gap < -1 || gap > Math.max(2, 2.2 * size)) return false;
    const rows = Math.max(1, Math.round(size));
    const end = above ? rowSpan(stem, map, stem.box.y0, stem.box.y0 + rows) : rowSpan(stem, map, stem.box.y1 - rows, stem.box.y1);
    // The top of an i or a comma may curl, but the stem stays narrow (a \dot over q is no i); the
    // foot of ! and ? is a single tapering stroke.
    if (!end || end.x1 - end.x0 > (above ? 2.5 : 1.5) * size + stroke) return false;
    if (above && w(stem.box) > 4 * size + stroke) return false;
    return Math.abs(cx(dot.box) - (end.x0 + end.x1) / 2) <= 0.5 * w(dot.box) + stroke;
  };
  /** The colon: two dots of a size, one over the other. */
  const twoDots = (a: Component, b: Component): boolean => {
    if (!isDot(a) || !isDot(b)) return false;
    const size = Math.max(w(a.box), h(a.box), w(b.box), h(b.box));
    const gap = Math.max(a.box.y0, b.box.y0) - Math.min(a.box.y1, b.box.y1);
    return (
      overlapX(a.box, b.box) >= 0.5 * Math.min(w(a.box), w(b.box)) && gap >= 0.5 * size && gap <= 4 * size && a.area <= 2.5 * b.area && b.area <= 2.5 * a.area
    );
  };
  /** = ≡ Ξ: flat bars of similar length stacked with their centres aligned (Ξ's serifs make its middle bar less flat). */
  const stackedBars = (a: Component, b: Component): boolean => {
    if (!(isFlat(a) || isFlat(b)) || w(a.box) < 1.8 * h(a.box) || w(b.box) < 1.8 * h(b.box)) return false;
    // A fraction bar over a short wide radical (\frac{1}{\sqrt{2\pi}}) is stacked the same way.
    // Bars are thin: an m over a fraction bar is as wide as the bar but much thicker.
    if (Math.max(h(a.box), h(b.box)) > 0.4 * Math.min(w(a.box), w(b.box))) return false;
    const radical = (c: Component) => traits(c).radical && !traits(c).rule;
    if (radical(a) || radical(b)) return false;
    const longest = Math.max(w(a.box), w(b.box));
    const gap = Math.max(a.box.y0, b.box.y0) - Math.min(a.box.y1, b.box.y1);
    // The two waves of a small ≈ interleave: a slightly negative gap.
    const minGap = -0.5 * Math.min(h(a.box), h(b.box));
    return Math.abs(cx(a.box) - cx(b.box)) <= 0.15 * longest && Math.min(w(a.box), w(b.box)) >= 0.55 * longest && gap >= minGap && gap <= 0.7 * longest;
  };
  /** ‖: two upright bars of the same extent side by side, a stroke or two apart with nothing between (unlike `( x )`). */
  const twinBars = (a: Component, b: Component): boolean => {
    const tall = Math.max(h(a.box), h(b.box));
    const thick = Math.max(w(a.box), w(b.box));
    const gap = Math.max(a.box.x0, b.box.x0) - Math.min(a.box.x1, b.box.x1);
    const sameExtent = Math.abs(a.box.y0 - b.box.y0) <= 0.1 * tall + 1 && Math.abs(a.box.y1 - b.box.y1) <= 0.1 * tall + 1;
    if (!sameExtent || tall < 4 * thick || gap <= 0 || gap > 2 * thick + stroke) return false;
    if (a.area > 1.5 * b.area || b.area > 1.5 * a.area) return false;
    const left = Math.min(a.box.x1, b.box.x1);
    const right = Math.max(a.box.x0, b.box.x0);
    return !parts.some((o) => o !== a && o !== b && o.box.x0 >= left && o.box.x1 <= right && o.box.y1 > a.box.y0 && o.box.y0 < a.box.y1);
  };
  /** ÷: dots centred over and under a bar that has nothing else directly above or below it. */
  const dotsAroundBar = (dot: Component, bar: Component): boolean => {
    if (!isDot(dot, bar) || !traits(bar).rule || w(bar.box) < 2 * w(dot.box)) return false;
    if (Math.abs(cx(dot.box) - cx(bar.box)) > 0.15 * w(bar.box)) return false;
    const gap = dot.box.y0 >= bar.box.y1 ? dot.box.y0 - bar.box.y1 : bar.box.y0 - dot.box.y1;
    if (gap < 0 || gap > 0.6 * w(bar.box)) return false;
    return ([-1, 1] as const).every((dir) => {
      const near = nearestVertical(bar, dir);
      return !near || isDot(near.other, bar) || near.gap > 0.6 * w(bar.box);
    });
  };
  /**
   * ≤ ≥ ⊆ ± (a bar under a glyph of the same width) and ∓ (a bar over a cross). A fraction bar
   * looks the same from the numerator's side; what gives it away is a glyph just beyond it.
   */
  const barAndGlyph = (bar: Component, glyph: Component): boolean => {
    if (!isFlat(bar) || isFlat(glyph) || isDot(glyph)) return false;
    const gw = w(glyph.box);
    if (Math.abs(bar.box.x0 - glyph.box.x0) > 0.2 * gw || Math.abs(bar.box.x1 - glyph.box.x1) > 0.2 * gw) return false;
    const below = bar.box.y0 >= glyph.box.y1 - 1;
    const gap = below ? bar.box.y0 - glyph.box.y1 : glyph.box.y0 - bar.box.y1;
    if (gap < -1 || gap > 0.6 * h(glyph.box)) return false;
    if (!below && !hasMiddleBar(glyph)) return false;
    const beyond = nearestVertical(bar, below ? 1 : -1);
    return !beyond || isFlat(beyond.other) || beyond.gap > h(glyph.box);
  };
  /** A cross (+): some row near the middle is inked across most of the width. */
  const hasMiddleBar = (c: Component): boolean => {
    const middle = Math.floor((c.box.y0 + c.box.y1) / 2);
    for (let y = Math.floor(middle - stroke); y <= Math.ceil(middle + stroke); y++) {
      if (y >= c.box.y0 && y < c.box.y1 && longestRun(c, map, y) >= 0.8 * w(c.box)) return true;
    }
    return false;
  };
  /**
   * A radical that TeX builds from a sign plus a rule (any radical taller than the font's biggest
   * one-piece sign, and the extended vinculum of wide radicands): the rule starts where the sign's
   * top-right tip ends. At 150 dpi the two may miss each other by a pixel.
   */
  const signAndVinculum = (sign: Component, bar: Component): boolean => {
    if (!traits(bar).rule || isFlat(sign) || h(sign.box) < 2 * h(bar.box)) return false;
    const reach = stroke + 1;
    if (Math.abs(bar.box.x0 - sign.box.x1) > reach || Math.abs(bar.box.y0 - sign.box.y0) > reach) return false;
    // The sign's top is its tip alone: ink only in the right half (an n beside a minus has its
    // left stem up there too).
    const tip = rowSpan(sign, map, sign.box.y0, Math.min(sign.box.y1, bar.box.y1 + 1));
    if (!tip || tip.x1 < sign.box.x1 - 1 || tip.x0 < sign.box.x0 + 0.5 * w(sign.box)) return false;
    // A vinculum covers a radicand (a minus after the curl of an f, as in f^{-1}, covers nothing).
    return parts.some((o) => o !== sign && o !== bar && cx(o.box) > bar.box.x0 && cx(o.box) < bar.box.x1 && o.box.y0 >= bar.box.y1 && o.box.y0 < sign.box.y1);
  };
  /** % ≠ ∉ Θ: a part lying mostly inside another's box, unless that box is a radical's or a frame's. */
  const inside = (small: Component, big: Component): boolean => {
    if (small.area > big.area || traits(big).radical || traits(big).frame) return false;
    // Θ's bar lies wholly within the O; a minus that pokes out of a big sign is a limit or a term.
    if (traits(small).rule && (small.box.x0 < big.box.x0 || small.box.x1 > big.box.x1)) return false;
    const ix = overlapX(small.box, big.box);
    const iy = Math.min(small.box.y1, big.box.y1) - Math.max(small.box.y0, big.box.y0);
    if (!(ix > 0 && iy > 0 && ix * iy >= 0.5 * w(small.box) * h(small.box))) return false;
    // A display integral's lower limit sits in the sign's box too, tucked under its tail: it hangs
    // below the sign, and the sign's ink does not reach past it on the right as Θ's O or the slash
    // across = does.
    if (small.box.y1 <= big.box.y1) return true;
    const span = rowSpan(big, map, small.box.y0, small.box.y1);
    return span !== null && span.x1 >= cx(small.box) - stroke;
  };
  const belong = (a: Component, b: Component): boolean =>
    dotAndStem(a, b) ||
    dotAndStem(b, a) ||
    twoDots(a, b) ||
    stackedBars(a, b) ||
    twinBars(a, b) ||
    dotsAroundBar(a, b) ||
    dotsAroundBar(b, a) ||
    barAndGlyph(a, b) ||
    barAndGlyph(b, a) ||
    signAndVinculum(a, b) ||
    signAndVinculum(b, a) ||
    inside(a, b) ||
    inside(b, a);

  // A speck is noise, unless it is the tittle of a stem right under it: a script-size i's dot at
  // 150 dpi can be one grey pixel.
  parts = [...large, ...map.components.filter((c) => c.area < speck && large.some((stem) => dotAndStem(c, stem)))];
  const root = parts.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i])));
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const a = parts[i].box;
      const b = parts[j].box;
      // Cheap reject: parts of one symbol are never further apart than twice the larger one's size.
      const reach = Math.max(2 * Math.max(w(a), h(a), w(b), h(b)), 6 * stroke);
      if (a.x0 - b.x1 > reach || b.x0 - a.x1 > reach || a.y0 - b.y1 > reach || b.y0 - a.y1 > reach) continue;
      if (find(i) !== find(j) && belong(parts[i], parts[j])) root[find(i)] = find(j);
    }
  }
  // Ξ's serifed middle bar is too tall to pass for a bar: take whatever lies between joined bars.
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      if (find(i) !== find(j) || !stackedBars(parts[i], parts[j])) continue;
      const bars = union(parts[i].box, parts[j].box);
      parts.forEach((c, k) => {
        const between = c.box.y0 >= bars.y0 && c.box.y1 <= bars.y1 && c.box.x0 >= bars.x0 && c.box.x1 <= bars.x1;
        if (between && Math.abs(cx(c.box) - cx(bars)) <= 0.15 * w(bars)) root[find(k)] = find(i);
      });
    }
  }
  const groups = new Map<number, Component[]>();
  parts.forEach((c, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), c]));
  return [...groups.values()]
    .map((members) => ({
      parts: members,
      box: members.map((c) => c.box).reduce(union),
      rule: members.length === 1 && traits(members[0]).rule,
      ...(members.length === 1 && traits(members[0]).frame ? { frame: true as const } : {}),
    }))
    .sort((a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0);
}
