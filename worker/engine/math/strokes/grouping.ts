import type { Box, Stroke } from '../types.js';
import { mergeComponents } from '../image/merge.js';
import { joinDots } from './dots.js';
import { boxWidth, isRadicalStroke, isStraightBar, strokeDistance, strokeBox } from './geometry.js';
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
 * Pen strokes → symbols. Strokes that touch or cross form one component; a radical sign is its own
 * component whatever runs under its vinculum, and a long bar joins only strokes that cross it. Pen
 * dots join their stems (dots.ts). The components are then painted on a canvas and joined by the
 * image front end's multi-part rules (= ≤ ÷ ± i j ! : ; ‖), so strokes and images group alike.
 * A lone straight horizontal stroke is RULE. Groups come out left to right.
 */
export function groupStrokes(strokes: readonly Stroke[], symbolHeight: number, canvasScale: number): { canvas: StrokeCanvas; groups: StrokeGroup[] } {
  const radicalStroke = strokes.map((s) => isRadicalStroke([s], symbolHeight));
  const straight = strokes.map((s) => isStraightBar([s], symbolHeight));
  const longBar = strokes.map((s, i) => straight[i] && boxWidth(strokeBox(s)) >= LONG_BAR * symbolHeight);
  const root = strokes.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i])));
  const boxes = strokes.map(strokeBox);
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
  const radical = touching.map((ids) =>
    isRadicalStroke(
      ids.map((i) => strokes[i]),
      symbolHeight,
    ),
  );
  const canvas = paintStrokeGroups(
    touching.map((ids) => ids.map((i) => strokes[i])),
    canvasScale,
  );

  // Radical signs stay out of the multi-part rules: their box holds the radicand, which
  // mergeComponents would otherwise take for a part drawn inside them (as in % or ≠).
  const withoutRadicals = { ...canvas.map, components: canvas.map.components.filter((c) => !radical[c.id - 1]) };
  const groups: StrokeGroup[] = mergeComponents(withoutRadicals).map((g) => {
    const ids = g.parts.map((c) => c.id);
    const strokeIds = ids.flatMap((id) => touching[id - 1]).sort((a, b) => a - b);
    const rule =
      ids.length === 1 &&
      isStraightBar(
        strokeIds.map((i) => strokes[i]),
        symbolHeight,
      );
    return { strokes: strokeIds, kind: rule ? 'rule' : 'glyph', componentIds: ids, canvasBox: g.box, box: canvas.toStrokeUnits(g.box) };
  });
  for (const c of canvas.map.components) {
    if (!radical[c.id - 1] || c.area === 0) continue;
    groups.push({ strokes: touching[c.id - 1], kind: 'radical', componentIds: [c.id], canvasBox: c.box, box: canvas.toStrokeUnits(c.box) });
  }
  groups.sort((a, b) => a.canvasBox.x0 - b.canvasBox.x0 || a.canvasBox.y0 - b.canvasBox.y0);
  return { canvas, groups };
}
