import type { Box, SymbolStyle } from '../types.js';
import { AXIS_HEIGHT } from './metrics.js';

/** One input symbol with the label the parser settled on (after look-alike resolution). */
export interface Glyph {
  latex: string;
  box: Box;
  confidence: number;
  style?: SymbolStyle;
  /** RADICAL only: x of the bottom of the sign's tick, when the front end knows it (MathSymbol.hookEnd). */
  hookEnd?: number;
}

/** The layout tree. Rows are lists of nodes read left to right. */
export type Node =
  /** `latex` is what the glyph became: a RULE becomes '-', a dot '.' or '\cdot'. */
  | { kind: 'glyph'; glyph: Glyph; latex: string }
  /** Several glyphs read as one token: a function name (`\sin`), upright text, `\ldots`, '=' from two rules. */
  | { kind: 'merged'; latex: string; glyphs: Glyph[] }
  | { kind: 'fraction'; bar: Glyph; numerator: Node[]; denominator: Node[] }
  | { kind: 'radical'; sign: Glyph; index: Node[]; radicand: Node[] }
  /**
   * A mark above (`\hat`, `\bar`, `\overline`) or below (`\underline`) its body; an extensible
   * arrow (`\xrightarrow`) has its label above as body and the one below, if any, as `below`.
   */
  | { kind: 'accent'; command: string; marks: Glyph[]; body: Node[]; below?: Node[] }
  | { kind: 'limits'; operator: Node; under: Node[]; over: Node[] }
  /** `base` is null for prescripts (`{}^{14}_{6}C`), written before an empty group. */
  | { kind: 'scripts'; base: Node | null; primes: Glyph[]; sub: Node[]; sup: Node[] }
  /** `open` is null for a grid without delimiters (`matrix`, `smallmatrix`). */
  | { kind: 'matrix'; environment: string; open: Glyph | null; close: Glyph | null; rows: Node[][][] }
  /**
   * The rows of a multi-line display, cut into cells at its alignment points (`aligned`) or not
   * (`gathered`); or the stacked lines of a big operator's limit (`substack`, one cell a row).
   */
  /** `\overset{over}{\underset{under}{base}}`: pieces centred right above or below one symbol. */
  | { kind: 'stack'; base: Node; over: Node[]; under: Node[] }
  | { kind: 'rows'; environment: 'aligned' | 'gathered' | 'substack'; rows: Node[][][] };

/**
 * A piece of the formula during parsing: a node, its box and its vertical metrics. `em` is null
 * when the box does not tell the size (operators, rules, delimiters, structures); `baselineFor`
 * turns an em into a baseline, so such an element borrows its em from a neighbour first.
 */
export interface Element {
  node: Node;
  box: Box;
  em: number | null;
  baselineFor: (em: number) => number;
  /** A structure's parts' em (a fraction's numerator and denominator): the row's size when nothing in it knows its own. */
  heldEm?: number;
}

/** A parsed row and the metrics of its main baseline, which a structure built around it inherits. */
export interface Row {
  nodes: Node[];
  baseline: number | null;
  em: number | null;
}

/** Parses a set of elements into a row; handed to each structure so it can parse its parts. */
export type ParseRow = (elements: Element[]) => Row;

export const width = (box: Box) => box.x1 - box.x0;
export const height = (box: Box) => box.y1 - box.y0;
export const centreX = (box: Box) => (box.x0 + box.x1) / 2;
export const centreY = (box: Box) => (box.y0 + box.y1) / 2;

export function unionBox(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map((box) => box.x0)),
    y0: Math.min(...boxes.map((box) => box.y0)),
    x1: Math.max(...boxes.map((box) => box.x1)),
    y1: Math.max(...boxes.map((box) => box.y1)),
  };
}

/** Length of the overlap of two intervals (negative: the gap between them). */
export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The em of a set of elements: the median of the known ones, else a guess from the boxes' heights. */
export function referenceEm(elements: Element[]): number {
  const known = median(elements.flatMap((element) => (element.em === null ? [] : [element.em])));
  return known ?? median(elements.map((element) => height(element.box))) ?? 1;
}

/** The glyph of a leaf element with the given label (any label when omitted), else null. */
export function glyphOf(element: Element, latex?: string): Glyph | null {
  const node = element.node;
  return node.kind === 'glyph' && (latex === undefined || node.glyph.latex === latex) ? node.glyph : null;
}

/** An element built by the parser, whose metrics follow its main row, or (when it has none) its axis: minus and equals signs, fractions, matrices. */
export function structureElement(node: Node, box: Box, row: Row | null, axisY: number, heldEm?: number | null): Element {
  if (row && row.baseline !== null && row.em !== null) {
    const baseline = row.baseline;
    return { node, box, em: row.em, baselineFor: () => baseline };
  }
  return { node, box, em: null, baselineFor: (em) => axisY + AXIS_HEIGHT * em, ...(heldEm ? { heldEm } : {}) };
}
