import { RADICAL, RULE, type MathSymbol, type SymbolStyle } from '../../worker/engine/math/types.js';
import { glyphInk } from './typeset-glyphs.js';

/**
 * A miniature TeX for the parser's tests: lays formulas out the way a typesetter would (scripts
 * at 0.7 size raised 0.45 em or lowered 0.2 em, fraction bars on the maths axis, limits centred
 * over and under display operators, growing delimiters, matrix rows on struts) with glyph ink
 * from New Computer Modern, then hands the symbols over PDF-style (baselines, sizes, styles) or
 * image-style (boxes only, every edge jittered by up to 3 %, order shuffled).
 */

/** A laid-out piece, in em, y up from its baseline; `draw` emits its symbols at an origin. */
interface Laid {
  width: number;
  height: number;
  depth: number;
  draw(x: number, y: number, out: Placed[]): void;
}
interface Placed {
  latex: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  baseline?: number;
  size: number;
  style?: SymbolStyle;
}
/** Something to lay out at a size (1 = text size), in display or text style. */
export type Item = (size: number, display: boolean) => Laid;

const AXIS = 0.25;
const RULE_THICKNESS = 0.04;
const SPACING: Record<string, number> = { bin: 0.22, rel: 0.28 };
const BINARY = new Set(['+', '-', '\\pm', '\\times', '\\cdot']);
const RELATIONS = new Set(['=', '<', '>', '\\leq', '\\geq', '\\rightarrow']);

/** One glyph; letters are italic unless `upright`. A '-' is drawn as a RULE, as front ends report it. */
export function g(token: string, upright = /^[0-9]$|^[^a-zA-Z\\]$/u.test(token)): Item {
  return (size, display) => {
    const ink = glyphInk(token, { upright, display });
    const latex = token === '-' ? RULE : token;
    const style: SymbolStyle | undefined = /^[a-zA-Z]$|^\\[a-z]+$/u.test(token) ? (upright ? 'upright' : 'italic') : undefined;
    return {
      width: ink.advance * size,
      height: ink.top * size,
      depth: -ink.bottom * size,
      draw: (x, y, out) =>
        out.push({
          latex,
          x0: x + ink.x0 * size,
          x1: x + ink.x1 * size,
          top: y + ink.top * size,
          bottom: y + ink.bottom * size,
          baseline: latex === RULE ? undefined : y,
          size,
          style,
        }),
    };
  };
}

/** A row of items; a string is split into glyphs, with binary and relation spacing around operators. */
export function row(...items: Array<Item | string>): Item {
  const parts = items.flatMap((item) => (typeof item === 'string' ? tokens(item).map((token) => ({ token, item: g(token) })) : [{ token: '', item }]));
  return (size, display) => {
    const laid = parts.map(({ token, item }) => ({ token, laid: item(size, display) }));
    const offsets: number[] = [];
    let x = 0;
    laid.forEach(({ token, laid: piece }, index) => {
      const space = (BINARY.has(token) && index > 0 ? SPACING.bin : RELATIONS.has(token) ? SPACING.rel : 0) * size;
      x += space;
      offsets.push(x);
      x += piece.width + space + (token === ',' ? 0.17 * size : 0);
    });
    return {
      width: x,
      height: Math.max(0, ...laid.map(({ laid: piece }) => piece.height)),
      depth: Math.max(0, ...laid.map(({ laid: piece }) => piece.depth)),
      draw: (x0, y, out) => laid.forEach(({ laid: piece }, index) => piece.draw(x0 + offsets[index], y, out)),
    };
  };
}

function tokens(text: string): string[] {
  return text.match(/\\[a-zA-Z]+|\\[{}]|\S/gu) ?? [];
}

const asItem = (item: Item | string) => (typeof item === 'string' ? row(item) : item);

/** Sub- and superscripts at 0.7 size, raised 0.45 em or lowered 0.2 em (more for tall bases). */
export function scripts(base: Item | string, sub: Item | string | null, sup: Item | string | null): Item {
  return (size, display) => {
    const b = asItem(base)(size, display);
    const lower = sub === null ? null : asItem(sub)(size * 0.7, false);
    const upper = sup === null ? null : asItem(sup)(size * 0.7, false);
    const raise = Math.max(0.45 * size, b.height - 0.25 * size);
    const drop = Math.max(0.2 * size, b.depth + 0.05 * size);
    return {
      width: b.width + Math.max(lower?.width ?? 0, upper?.width ?? 0) + 0.05 * size,
      height: Math.max(b.height, upper ? raise + upper.height : 0),
      depth: Math.max(b.depth, lower ? drop + lower.depth : 0),
      draw: (x, y, out) => {
        b.draw(x, y, out);
        upper?.draw(x + b.width, y + raise, out);
        lower?.draw(x + b.width, y - drop, out);
      },
    };
  };
}
export const sup = (base: Item | string, script: Item | string) => scripts(base, null, script);
export const sub = (base: Item | string, script: Item | string) => scripts(base, script, null);

/** A fraction: bar on the axis, parts centred, at 0.7 size in text style. */
export function frac(numerator: Item | string, denominator: Item | string): Item {
  return (size, display) => {
    const partSize = display ? size : size * 0.7;
    const num = asItem(numerator)(partSize, false);
    const den = asItem(denominator)(partSize, false);
    const clearance = (display ? 0.2 : 0.12) * size;
    const barWidth = Math.max(num.width, den.width) + 0.24 * size;
    const axis = AXIS * size;
    const numShift = axis + (RULE_THICKNESS * size) / 2 + clearance + num.depth;
    const denShift = -axis + (RULE_THICKNESS * size) / 2 + clearance + den.height;
    return {
      width: barWidth,
      height: numShift + num.height,
      depth: denShift + den.depth,
      draw: (x, y, out) => {
        out.push({
          latex: RULE,
          x0: x + 0.12 * size,
          x1: x + barWidth - 0.12 * size,
          top: y + axis + (RULE_THICKNESS * size) / 2,
          bottom: y + axis - (RULE_THICKNESS * size) / 2,
          size,
        });
        num.draw(x + (barWidth - num.width) / 2, y + numShift, out);
        den.draw(x + (barWidth - den.width) / 2, y - denShift, out);
      },
    };
  };
}

/** A root: one RADICAL box over hook and vinculum; an index at half size above the hook. */
export function sqrt(radicand: Item | string, index?: Item | string): Item {
  return (size, display) => {
    const body = asItem(radicand)(size, display);
    const idx = index === undefined ? null : asItem(index)(size * 0.5, false);
    const hook = 0.85 * size;
    const top = body.height + 0.16 * size;
    const bottom = Math.max(body.depth, 0.25 * size);
    const lead = idx ? Math.max(0, 0.28 * size + idx.width - 0.55 * size) : 0;
    return {
      width: lead + hook + body.width + 0.1 * size,
      height: Math.max(top, idx ? 0.6 * (top - bottom) + idx.height : 0),
      depth: bottom,
      draw: (x, y, out) => {
        out.push({ latex: RADICAL, x0: x + lead, x1: x + lead + hook + body.width + 0.1 * size, top: y + top, bottom: y - bottom, size });
        idx?.draw(x + lead + 0.55 * size - idx.width, y + 0.6 * (top - bottom), out);
        body.draw(x + lead + hook, y, out);
      },
    };
  };
}

/** A big operator: in display style large with limits centred above and below, else with scripts. */
export function bigop(operator: string | Item, under: Item | string | null, over: Item | string | null, limits = true): Item {
  const symbol = typeof operator === 'string' ? g(operator) : operator;
  return (size, display) => {
    if (!display || !limits) return scripts(symbol, under, over)(size, display);
    const op = symbol(size, true);
    const centreShift = typeof operator === 'string' ? AXIS * size - (op.height - op.depth) / 2 : 0;
    const below = under === null ? null : asItem(under)(size * 0.7, false);
    const above = over === null ? null : asItem(over)(size * 0.7, false);
    const width = Math.max(op.width, below?.width ?? 0, above?.width ?? 0);
    const gap = 0.17 * size;
    return {
      width,
      height: op.height + centreShift + (above ? gap + above.depth + above.height : 0),
      depth: op.depth - centreShift + (below ? gap + below.height + below.depth : 0),
      draw: (x, y, out) => {
        op.draw(x + (width - op.width) / 2, y + centreShift, out);
        above?.draw(x + (width - above.width) / 2, y + centreShift + op.height + gap + above.depth, out);
        below?.draw(x + (width - below.width) / 2, y + centreShift - op.depth - gap - below.height, out);
      },
    };
  };
}

/** Upright letters: a function name (`fn('sin')`) or a word. */
export const fn = (name: string): Item => row(...[...name].map((letter) => g(letter, true)));

/** A delimiter grown to span `height` above and `depth` below the baseline, centred on the axis. */
function delimiter(token: string, half: number, size: number): Laid {
  if (token === '.') return { width: 0.12 * size, height: 0, depth: 0, draw: () => undefined };
  const normal = g(token)(size, false);
  if (half <= 0.55 * size) return normal;
  const stretched = half + 0.1 * size;
  return {
    width: 0.45 * size,
    height: AXIS * size + stretched,
    depth: stretched - AXIS * size,
    draw: (x, y, out) =>
      out.push({ latex: token, x0: x + 0.1 * size, x1: x + 0.35 * size, top: y + AXIS * size + stretched, bottom: y + AXIS * size - stretched, size }),
  };
}

/**
 * Delimiters that grow around their body; '.' is no delimiter, as in `\\right.`. `fixedHalf` (em)
 * sets them at one size whatever the body, as TeX's fraction delimiters (`\\binom`: 2.39 em in a
 * display, `fixedHalf` 1.095).
 */
export function fenced(open: string, body: Item | string, close: string, fixedHalf?: number): Item {
  return (size, display) => {
    const inner = asItem(body)(size, display);
    const half = fixedHalf !== undefined ? fixedHalf * size : Math.max(inner.height - AXIS * size, inner.depth + AXIS * size);
    const [left, right] = [delimiter(open, half, size), delimiter(close, half, size)];
    return {
      width: left.width + inner.width + right.width,
      height: Math.max(left.height, inner.height),
      depth: Math.max(left.depth, inner.depth),
      draw: (x, y, out) => {
        left.draw(x, y, out);
        inner.draw(x + left.width, y, out);
        right.draw(x + left.width + inner.width, y, out);
      },
    };
  };
}

/** A grid on struts (rows at least 0.84 em high, 0.36 em deep; `stretch` as arraystretch), columns `gap` em apart. */
export function grid(rows: Array<Array<Item | string>>, align: 'centre' | 'left' = 'centre', stretch = 1, gap = 1): Item {
  return (size) => {
    const cells = rows.map((cellsOfRow) => cellsOfRow.map((cell) => asItem(cell)(size, false)));
    const columns = Math.max(...cells.map((cellsOfRow) => cellsOfRow.length));
    const widths = Array.from({ length: columns }, (_, c) => Math.max(...cells.map((cellsOfRow) => cellsOfRow[c]?.width ?? 0)));
    const heights = cells.map((cellsOfRow) => Math.max(0.84 * stretch * size, ...cellsOfRow.map((cell) => cell.height)));
    const depths = cells.map((cellsOfRow) => Math.max(0.36 * stretch * size, ...cellsOfRow.map((cell) => cell.depth)));
    const total = heights.reduce((a, b) => a + b, 0) + depths.reduce((a, b) => a + b, 0);
    const width = widths.reduce((a, b) => a + b, 0) + (columns - 1) * gap * size;
    return {
      width,
      height: total / 2 + AXIS * size,
      depth: total / 2 - AXIS * size,
      draw: (x, y, out) => {
        let top = y + total / 2 + AXIS * size;
        cells.forEach((cellsOfRow, r) => {
          const baseline = top - heights[r];
          let left = x;
          cellsOfRow.forEach((cell, c) => {
            cell.draw(align === 'left' ? left : left + (widths[c] - cell.width) / 2, baseline, out);
            left += widths[c] + gap * size;
          });
          top = baseline - depths[r];
        });
      },
    };
  };
}

/** An accent mark centred above its body; `RULE` is an overline as wide as the body, `\\bar` a shorter rule. */
export function accent(token: string, body: Item | string): Item {
  return (size, display) => {
    const inner = asItem(body)(size, display);
    const length = inner.width * (token === RULE ? 1 : 0.6);
    const rule: Laid = {
      width: length,
      height: RULE_THICKNESS * size,
      depth: 0,
      draw: (x, y, out) => out.push({ latex: RULE, x0: x, x1: x + length, top: y + RULE_THICKNESS * size, bottom: y, size }),
    };
    const mark = token === RULE || token === '\\bar' ? rule : shifted(g(token)(size * (token === '\\vec' ? 0.7 : 1), false), token);
    const lift = inner.height + 0.08 * size;
    return {
      width: inner.width,
      height: lift + mark.height,
      depth: inner.depth,
      draw: (x, y, out) => {
        inner.draw(x, y, out);
        mark.draw(x + (inner.width - mark.width) / 2, y + lift, out);
      },
    };
  };
}

/** Accent glyphs sit high in their box; move their ink to the box's baseline so `lift` places them. */
function shifted(mark: Laid, token: string): Laid {
  const ink = glyphInk(token);
  const scale = mark.height / ink.top;
  const drop = ink.bottom > 0 ? ink.bottom * scale : 0;
  return { ...mark, height: mark.height - drop, draw: (x, y, out) => mark.draw(x, y - drop, out) };
}

export const ldots: Item = row(g('.'), g('.'), g('.'));
export const cdots: Item = row(g('\\cdot'), g('\\cdot'), g('\\cdot'));

/** Deterministic pseudo-random numbers (mulberry32), so a failing jittered layout can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lays an item out in display style at 20 units per em, PDF-style or image-style. */
export function typeset(item: Item, mode: 'pdf' | 'image', seed = 1): MathSymbol[] {
  const EM = 20;
  const placed: Placed[] = [];
  const laid = item(1, true);
  laid.draw(0, 0, placed);
  const next = random(seed);
  const symbols = placed.map((p): MathSymbol => {
    const box = { x0: p.x0 * EM, y0: (laid.height - p.top) * EM, x1: p.x1 * EM, y1: (laid.height - p.bottom) * EM };
    if (mode === 'pdf') {
      const baseline = p.baseline === undefined ? undefined : (laid.height - p.baseline) * EM;
      return { latex: p.latex, box, confidence: 1, baseline, size: p.latex === RULE || p.latex === RADICAL ? undefined : p.size * EM, style: p.style };
    }
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    const jitter = (extent: number) => (next() * 2 - 1) * 0.03 * extent;
    return { latex: p.latex, box: { x0: box.x0 + jitter(w), y0: box.y0 + jitter(h), x1: box.x1 + jitter(w), y1: box.y1 + jitter(h) }, confidence: 0.95 };
  });
  return mode === 'image'
    ? symbols
        .map((symbol) => ({ symbol, key: next() }))
        .sort((a, b) => a.key - b.key)
        .map(({ symbol }) => symbol)
    : symbols;
}
