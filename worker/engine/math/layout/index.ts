import type { MathResult, MathSymbol } from '../types.js';
import { groupBareGrids } from './bare-grids.js';
import { groupDisplayRows } from './display-rows.js';
import { emitLatex } from './emit.js';
import type { Glyph, Node } from './element.js';
import { glyphElement } from './glyphs.js';
import { chooseLabels } from './lookalikes.js';
import { readNameLetters } from './name-lookalikes.js';
import { parseRow } from './parse.js';

/**
 * The 2-D layout parser: symbols with boxes (from PDF glyphs, image crops or pen strokes) to
 * LaTeX. `confidence` is the plain product of the chosen labels' (calibrated) confidences (no tempering:
 * a long formula is more likely to hold a mistake, and the number should say so); layout
 * decisions add no factor of their own. `boxes` lists the symbols in reading order with the
 * token each became.
 */
export function parseLayout(symbols: MathSymbol[]): MathResult {
  if (symbols.length === 0) return { latex: '', confidence: 0, boxes: [] };
  const { nodes, glyphs, rows } = layoutTree(symbols);
  const { latex, boxes } = emitLatex(nodes);
  const confidence = glyphs.reduce((product, glyph) => product * glyph.confidence, 1);
  return { latex, confidence, boxes, ...(rows ? { rows: rows.spans } : {}) };
}

/**
 * The layout tree parseLayout emits, with the glyphs in input order (`glyphs[i]` is `symbols[i]`
 * with its chosen label; tree nodes hold these very objects): a front end may ask which of its
 * symbols the parser set as scripts, numerators or radicands.
 */
export function layoutTree(symbols: MathSymbol[]): { nodes: Node[]; glyphs: Glyph[]; rows: ReturnType<typeof groupDisplayRows> } {
  // Labels are chosen on the front end's probabilities; the result reports them calibrated.
  const glyphs = readNameLetters(symbols, chooseLabels(symbols)).map((glyph, index) => ({
    ...glyph,
    confidence: glyph.confidence ** (symbols[index]!.confidenceExponent ?? 1),
  }));
  const leaves = glyphs.map((glyph, index) => glyphElement(glyph, symbols[index]));
  // Only a PDF's glyphs know their font size; their positions are exact, an image's are not.
  const exact = symbols.some((symbol) => symbol.size !== undefined);
  // A grid without delimiters is one piece of whatever row it stands in, so it is found first.
  const elements = groupBareGrids(leaves, parseRow, exact);
  // A display of several rows (align, gather …) is read row by row; one line is one row.
  const rows = groupDisplayRows(elements, parseRow, exact);
  return { nodes: rows ? [rows.node] : parseRow(elements).nodes, glyphs, rows };
}
