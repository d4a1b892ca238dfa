import type { Box, Stroke } from '../types.js';
import { mergeComponents } from '../image/merge.js';
import { joinDots } from './dots.js';
import { equalsPairs } from './equals.js';
import { boxHeight, boxWidth, isStraightBar, radicalSign, strokeDistance, strokeBox, unionBox } from './geometry.js';
import { paintStrokeGroups, type StrokeCanvas } from './raster.js';

/** One symbol's strokes and what geometry already says about it. */
export interface StrokeGroup {
  /** Indices into the strokes handed to `groupStrokes`. */
  strokes: number[];
  /** RULE and RADICAL are decided here; only 'glyph' goes to the classifier. */
  kind: 'glyph' | 'rule' | 'radical';
  /** The canvas components drawing the group and their box in canvas pixels (empty for groups regroup.ts made). */
  componentIds: number[];
  canvasBox: Box;
  /** The group's box in the strokes' own units. */
  box: Box;
}

/** Strokes closer than this (in symbol heights) belong to one symbol: the arms of x, the foot of 1. */
const TOUCH_DISTANCE = 0.15;
/**
 * A straight bar joins only what all but touches it (the legs of π, the stem of T): a numerator
 * or an overlined letter sits a small gap away from its bar.
 */
const BAR_TOUCH_DISTANCE = 0.05;
/**
 * A straight bar at least this wide (in symbol heights) is a fraction bar or overline and joins only
 * what crosses it (the bars of + ± ≠): a numerator written onto it stays apart. π's bar is shorter.
 */
const LONG_BAR = 1.5;

/**
 * Pen strokes → symbols. Strokes that touch or cross form one component, and so do the two bars of
 * a hand-drawn `=` (equals.ts); a radical sign is its own
 * component whatever runs under its vinculum, and a long bar joins only strokes that cross it. Pen
 * dots join their stems (dots.ts). The components are then painted on a canvas and joined by the
 * image front end's multi-part rules (= ≤ ÷ ± i j ! : ; ‖), so strokes and images group alike.
 * A lone straight horizontal stroke is RULE. Groups come out left to right.
 */
export function groupStrokes(strokes: readonly Stroke[], symbolHeight: number, canvasScale: number): { canvas: StrokeCanvas; groups: StrokeGroup[] } {
  const boxes = strokes.map(strokeBox);
  const radicalStroke = strokes.map((s, i) => isRadicalOver([i], strokes, symbolHeight, boxes));
  const straight = strokes.map((s) => isStraightBar([s], symbolHeight));
  const longBar = strokes.map((s, i) => straight[i] && boxWidth(strokeBox(s)) >= LONG_BAR * symbolHeight);
  const root = strokes.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i])));
  for (const [i, j] of equalsPairs(boxes, symbolHeight)) if (!radicalStroke[i] && !radicalStroke[j]) root[find(i)] = find(j);
  const reach = TOUCH_DISTANCE * symbolHeight;
  for (let i = 0; i < strokes.length; i++) {
    for (let j = i + 1; j < strokes.length; j++) {
      if (radicalStroke[i] || radicalStroke[j] || find(i) === find(j)) continue;
      const a = boxes[i];
      const b = boxes[j];
      if (a.x0 - b.x1 > reach || b.x0 - a.x1 > reach || a.y0 - b.y1 > reach || b.y0 - a.y1 > reach) continue;
      const distance = strokeDistance(strokes[i], strokes[j]);
      const near = (straight[i] || straight[j] ? BAR_TOUCH_DISTANCE : TOUCH_DISTANCE) * symbolHeight;
      if (distance === 0 || (distance <= near && !longBar[i] && !longBar[j])) root[find(i)] = find(j);
    }
  }
  const members = new Map<number, number[]>();
  strokes.forEach((_, i) => members.set(find(i), [...(members.get(find(i)) ?? []), i]));
  const touching = joinDots([...members.values()], strokes, symbolHeight);
  // A sign of several touching strokes is a tick and its vinculum drawn apart: a `(` touching the
  // stem of the `k` it opens has a radical's outline too.
  const radical = touching.map(
    (ids) => (ids.length === 1 || (ids.length === 2 && ids.some((i) => straight[i]))) && isRadicalOver(ids, strokes, symbolHeight, boxes),
  );
  const canvas = paintStrokeGroups(
    touching.map((ids) => ids.map((i) => strokes[i])),
    canvasScale,
  );

  // Radical signs stay out of the multi-part rules: their box holds the radicand, which
  // mergeComponents would otherwise take for a part drawn inside them (as in % or ≠).
  const withoutRadicals = { ...canvas.map, components: canvas.map.components.filter((c) => !radical[c.id - 1]) };
  const bar = (id: number) =>
    isStraightBar(
      touching[id - 1].map((i) => strokes[i]),
      symbolHeight,
    );
  // Bars stacked with other ink between them are fraction bars over one another (a fraction in a
  // numerator), not the lines of Ξ or ≡ that typeset glyphs and the image rules look for.
  const parted = mergeComponents(withoutRadicals).flatMap((g) =>
    g.parts.filter((c) => bar(c.id)).length >= 2 && g.parts.some((c) => !bar(c.id)) ? g.parts.map((c) => ({ parts: [c], box: c.box })) : [g],
  );
  const groups: StrokeGroup[] = parted.map((g) => {
    const ids = g.parts.map((c) => c.id);
    const strokeIds = ids.flatMap((id) => touching[id - 1]).sort((a, b) => a - b);
    const rule = ids.length === 1 && bar(ids[0]);
    return { strokes: strokeIds, kind: rule ? 'rule' : 'glyph', componentIds: ids, canvasBox: g.box, box: canvas.toStrokeUnits(g.box) };
  });
  for (const c of canvas.map.components) {
    if (!radical[c.id - 1] || c.area === 0) continue;
    groups.push({ strokes: touching[c.id - 1], kind: 'radical', componentIds: [c.id], canvasBox: c.box, box: canvas.toStrokeUnits(c.box) });
  }
  groups.sort((a, b) => a.canvasBox.x0 - b.canvasBox.x0 || a.canvasBox.y0 - b.canvasBox.y0);
  return { canvas, groups };
}

/**
 * Whether the strokes `ids` draw a radical sign (geometry.ts radicalSign) over other ink. A sign
 * is written over its radicand, while an `r`, `e` or `5` with a radical's outline covers nothing:
 * another stroke's centre must lie under the sign, right of its tick. An outline that other marks
 * share (`loose`: an arc of a cursive `x` over the other arc, the stem of a `k` by its arm) needs a
 * radicand that sits wholly under the vinculum, right of the tick's low point and clear of the
 * sign, as a radicand does and a letter's other stroke does not.
 */
function isRadicalOver(ids: readonly number[], strokes: readonly Stroke[], symbolHeight: number, boxes: readonly Box[]): boolean {
  const sign = radicalSign(
    ids.map((i) => strokes[i]),
    symbolHeight,
  );
  if (!sign) return false;
  const box = ids.map((i) => boxes[i]).reduce(unionBox);
  const tick = 0.25 * boxHeight(box);
  const vinculum = UNDER_VINCULUM * boxHeight(box);
  return boxes.some((b, i) => {
    if (ids.includes(i)) return false;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const centred = cx > box.x0 + tick && cx < box.x1 && cy > box.y0 && cy < box.y1;
    if (!centred) return false;
    if (!sign.loose) return true;
    const under = b.y0 >= box.y0 + vinculum && b.x0 >= sign.hookEnd && b.y1 <= box.y1 + vinculum;
    return under && Math.min(...ids.map((j) => strokeDistance(strokes[j], strokes[i]))) >= CLEAR_OF_SIGN * symbolHeight;
  });
}

/** How far under the top of a loosely drawn sign (in its heights) its radicand's top must be. */
const UNDER_VINCULUM = 0.1;
/** How far (in symbol heights) a loosely drawn sign's radicand keeps clear of it: a letter's own strokes touch. */
const CLEAR_OF_SIGN = 0.05;
