import type { Box } from '../types.js';
import { classifyFont, isTextItalicFont, type FontFamily } from './tex-fonts.js';

/**
 * Ink boxes from the outlines pdf.js ships for each glyph. With `disableFontFace` pdf.js's worker
 * compiles every shown glyph to drawing commands and resolves them in the page's commonObjs as
 * `<loadedName>_path_<fontChar>` (moveTo 0, lineTo 1, curveTo 2, quadraticCurveTo 3, closePath 4,
 * in ems with y up) — the same data pdf.js's canvas fills. Their bounding box is the glyph's ink.
 */

/** The fields of a pdf.js font object (commonObjs) this module reads. */
export interface FontObject {
  name?: string;
  loadedName?: string;
  ascent?: number;
  descent?: number;
  fontMatrix?: number[];
  bold?: boolean;
  italic?: boolean;
  missingFile?: boolean;
}

export interface FontFacts {
  name: string;
  family: FontFamily;
  /** A text font's italic (isTextItalicFont). */
  italic: boolean;
  /** Ascent and descent in ems, for boxes when the outline is missing. */
  ascent: number;
  descent: number;
}

interface ObjectStore {
  has(id: string): boolean;
  get(id: string): unknown;
}

const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

const factsCache = new WeakMap<FontObject, FontFacts>();
const inkCache = new WeakMap<FontObject, Map<string, Box | null>>();

export function fontFacts(font: FontObject): FontFacts {
  let facts = factsCache.get(font);
  if (!facts) {
    const name = font.name ?? '';
    // pdf.js reports 0/0 for some fonts; TeX's usual 0.75/-0.25 em is a fair default.
    const ascent = font.ascent && font.ascent > 0.2 ? font.ascent : 0.75;
    const descent = font.descent && font.descent < 0 ? font.descent : -0.25;
    facts = { name, family: classifyFont(name), italic: isTextItalicFont(name, Boolean(font.italic)), ascent, descent };
    factsCache.set(font, facts);
  }
  return facts;
}

/** The glyph's ink box in ems (y up), or undefined when pdf.js has no outline for it. */
export function glyphInk(objs: ObjectStore, font: FontObject, fontChar: string): Box | undefined {
  let perFont = inkCache.get(font);
  if (!perFont) inkCache.set(font, (perFont = new Map()));
  const cached = perFont.get(fontChar);
  if (cached !== undefined) return cached ?? undefined;
  const id = `${font.loadedName}_path_${fontChar}`;
  const path = objs.has(id) ? (objs.get(id) as { path?: ArrayLike<number> } | null)?.path : undefined;
  const box = path ? pathBounds(path) : undefined;
  perFont.set(fontChar, box ?? null);
  return box;
}

/** Exact bounds of a drawing-command path, curve extrema included (not just control points). */
export function pathBounds(data: ArrayLike<number>): Box | undefined {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  const add = (x: number, y: number) => {
    box.x0 = Math.min(box.x0, x);
    box.x1 = Math.max(box.x1, x);
    box.y0 = Math.min(box.y0, y);
    box.y1 = Math.max(box.y1, y);
  };
  let cx = 0;
  let cy = 0;
  // Type 1 outlines start with a moveTo and a zero-length lineTo at the side-bearing point on the
  // baseline; counting it would stretch every raised glyph (accents, superscripts) down to the
  // baseline. So a point counts only as the end of a segment that draws something.
  const segment = (x: number, y: number, extremes: () => void) => {
    if (x !== cx || y !== cy) {
      add(cx, cy);
      add(x, y);
      extremes();
    }
    [cx, cy] = [x, y];
  };
  for (let i = 0; i < data.length;) {
    const op = data[i++];
    if (op === DRAW.moveTo) {
      [cx, cy] = [data[i++], data[i++]];
    } else if (op === DRAW.lineTo) {
      segment(data[i++], data[i++], () => undefined);
    } else if (op === DRAW.curveTo || op === DRAW.quadraticCurveTo) {
      let [x1, y1, x2, y2, x3, y3] = op === DRAW.curveTo ? [data[i++], data[i++], data[i++], data[i++], data[i++], data[i++]] : [0, 0, 0, 0, 0, 0];
      if (op === DRAW.quadraticCurveTo) {
        // A quadratic is the cubic whose control points lie 2/3 of the way to its one control point.
        const [qx, qy, ex, ey] = [data[i++], data[i++], data[i++], data[i++]];
        [x1, y1, x2, y2, x3, y3] = [cx + (2 / 3) * (qx - cx), cy + (2 / 3) * (qy - cy), ex + (2 / 3) * (qx - ex), ey + (2 / 3) * (qy - ey), ex, ey];
      }
      const [sx, sy] = [cx, cy];
      segment(x3, y3, () => {
        for (const t of [...cubicExtrema(sx, x1, x2, x3), ...cubicExtrema(sy, y1, y2, y3)]) add(cubic(sx, x1, x2, x3, t), cubic(sy, y1, y2, y3, t));
      });
    } else if (op !== DRAW.closePath) {
      return undefined;
    }
  }
  return box.x1 >= box.x0 ? box : undefined;
}

function cubic(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const u = 1 - t;
  return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
}

/** Parameters in (0,1) where the cubic's derivative is zero. */
function cubicExtrema(p0: number, p1: number, p2: number, p3: number): number[] {
  const a = -p0 + 3 * p1 - 3 * p2 + p3;
  const b = 2 * (p0 - 2 * p1 + p2);
  const c = p1 - p0;
  const roots: number[] = [];
  if (Math.abs(a) < 1e-12) {
    if (Math.abs(b) > 1e-12) roots.push(-c / b);
  } else {
    const disc = b * b - 4 * a * c;
    if (disc >= 0) {
      const s = Math.sqrt(disc);
      roots.push((-b + s) / (2 * a), (-b - s) / (2 * a));
    }
  }
  return roots.filter((t) => t > 0 && t < 1);
}
