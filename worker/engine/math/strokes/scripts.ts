import type { Glyph, Node } from '../layout/element.js';
import { layoutTree } from '../layout/index.js';
import type { Box, MathSymbol } from '../types.js';

/** A symbol the layout parser set as a script: how deep (1 a script, 2 a script's script) and on what. */
export interface ScriptPlace {
  depth: number;
  /** Index of the glyph it is a script of, when its base is one glyph. */
  base?: number;
}

/**
 * Which of `symbols` the layout parser reads as scripts, with fraction bars, radicals and every
 * other structure known: a numerator beside a letter is the fraction's row, not the letter's
 * superscript. Keyed by index into `symbols`.
 */
export function scriptPlaces(symbols: MathSymbol[]): Map<number, ScriptPlace> {
  const places = new Map<number, ScriptPlace>();
  if (!symbols.length) return places;
  const index = new Map<Box, number>(symbols.map((s, i) => [s.box, i]));
  const indexOf = (glyph: Glyph) => index.get(glyph.box);
  const mark = (glyph: Glyph, depth: number, base?: number) => {
    const at = indexOf(glyph);
    if (depth > 0 && at !== undefined) places.set(at, { depth, ...(base === undefined ? {} : { base }) });
  };
  const visit = (nodes: readonly Node[], depth: number, base?: number): void => {
    for (const node of nodes) {
      switch (node.kind) {
        case 'glyph':
          mark(node.glyph, depth, base);
          break;
        case 'merged':
          for (const g of node.glyphs) mark(g, depth, base);
          break;
        case 'scripts': {
          if (node.base) visit([node.base], depth, base);
          const own = node.base?.kind === 'glyph' ? indexOf(node.base.glyph) : undefined;
          visit(node.sub, depth + 1, own);
          visit(node.sup, depth + 1, own);
          break;
        }
        case 'fraction':
          visit(node.numerator, depth, base);
          visit(node.denominator, depth, base);
          break;
        case 'radical':
          visit(node.index, depth + 1);
          visit(node.radicand, depth, base);
          break;
        case 'accent':
          visit(node.body, depth, base);
          if (node.below) visit(node.below, depth, base);
          break;
        case 'limits':
          visit([node.operator], depth, base);
          visit(node.under, depth + 1);
          visit(node.over, depth + 1);
          break;
        case 'stack':
          visit([node.base], depth, base);
          visit(node.over, depth + 1);
          visit(node.under, depth + 1);
          break;
        case 'matrix':
        case 'rows':
          for (const row of node.rows) for (const cell of row) visit(cell, depth, base);
          break;
      }
    }
  };
  visit(layoutTree(symbols).nodes, 0);
  return places;
}
