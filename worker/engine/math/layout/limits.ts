import type { Box } from '../types.js';
import { centreX, glyphOf, height, overlap, referenceEm, unionBox, type Element, type Glyph, type Node, type ParseRow } from './element.js';
import { centredRun, isCentred } from './centred-limits.js';
import { LIMIT_OPERATORS, SCRIPT_SHARE } from './metrics.js';

/**
 * A Greek capital with limit lines both under and over it is the big operator it looks like: Times'
 * display `\sum` is read `\Sigma` by its size (it is smaller than Computer Modern's), and its limits
 * became `\overset{\infty}{\underset{k=0}{\Sigma}}`. With a line on one side only it stays a letter
 * (`\hat{\Sigma}`, `\underline{\Pi}` are marks, and a lone line may be a fraction's part).
 */
const BIG_CAPITALS: Readonly<Record<string, string>> = { '\\Sigma': '\\sum', '\\Pi': '\\prod' };
/** Limits start within this distance (em) of their operator. */
const LIMIT_GAP_EM = 0.6;
/** Pieces of one limit line (`i`, `=`, `1`) follow each other this closely (em). */
const PIECE_GAP_EM = 0.45;
/** A limit line whose centre is this far (em) from its operator's reaches toward a neighbour. */
const OFF_CENTRE_EM = 0.3;
/** Stacked limit lines (`\substack`) follow each other this closely (em). */
const STACK_GAP_EM = 0.35;

/** An operator's name; an underlined or overlined one (amsmath's `\\varliminf`, `\\varlimsup`) takes limits as the name does. */
function operatorLatex(element: Element): string | null {
  const { node } = element;
  if (node.kind === 'accent' && LIMIT_RULES.has(node.command) && node.body.length === 1 && node.body[0]!.kind === 'merged') return node.body[0]!.latex;
  return node.kind === 'glyph' ? node.glyph.latex : node.kind === 'merged' ? node.latex : null;
}
const LIMIT_RULES = new Set(['\\underline', '\\overline']);

/**
 * Attaches limits set above and below big operators and `\lim`-like words: a line of elements
 * entirely below (above) the operator that starts within its width, grown sideways while the
 * pieces touch. Scripts set beside an operator (`\int_0^1` in text style) overlap it vertically
 * and are left to the baseline parser. Fractions are built before this, so a neighbouring
 * numerator is no longer a loose element that could be mistaken for an upper limit.
 */
export function groupLimits(elements: Element[], parseRow: ParseRow): Element[] {
  let pool = mergeIntegrals(elements);
  // An operator set at script size (`\lambda_{\max}^{1-q}`) is in script style, where TeX sets limits beside it as scripts.
  const mainEm = referenceEm(elements);
  const operators = elements.filter(
    (element) =>
      (LIMIT_OPERATORS.has(operatorLatex(element) ?? '') || operatorLatex(element)! in BIG_CAPITALS) &&
      !(element.em !== null && element.em < SCRIPT_SHARE * mainEm),
  );
  for (const operator of operators) {
    const em = operator.em ?? referenceEm(pool);
    // Limits are centred on their operator: what sits nearer a neighbouring operator is that one's (`\sum_{i}\sum_{j}`).
    const rivals = operators.filter((other) => other !== operator && overlap(other.box.y0, other.box.y1, operator.box.y0, operator.box.y1) > 0);
    const own = pool.filter((element) =>
      rivals.every((other) => Math.abs(centreX(element.box) - centreX(operator.box)) <= Math.abs(centreX(element.box) - centreX(other.box))),
    );
    // Unless a line so found is off its operator: then pieces past the neighbour's centre may be this one's (centred-limits.ts).
    const wide = pool.filter((element) => rivals.every((other) => overlap(element.box.x0, element.box.x1, other.box.x0, other.box.x1) <= 0));
    const under = sideFree(ownLimitLines(own, wide, operator, 'under', em), operator, pool, em);
    const over = sideFree(ownLimitLines(own, wide, operator, 'over', em), operator, pool, em)
      .filter((line) => smallerThan(line, operator))
      .reverse();
    if (under.length === 0 && over.length === 0) continue;
    const capital = BIG_CAPITALS[operatorLatex(operator)!];
    if (capital && (under.length === 0 || over.length === 0)) continue;
    const operatorNode =
      capital && operator.node.kind === 'glyph' ? { ...operator.node, latex: capital, glyph: { ...operator.node.glyph, latex: capital } } : operator.node;
    const claimed = new Set([...under.flat(), ...over.flat()]);
    pool = pool.filter((element) => element !== operator && !claimed.has(element));
    const node = { kind: 'limits' as const, operator: operatorNode, under: limitNodes(under, parseRow), over: limitNodes(over, parseRow) };
    const box = unionBox([operator, ...claimed].map((element) => element.box));
    pool.push({ node, box, em: operator.em, baselineFor: operator.baselineFor });
  }
  return pool;
}

/**
 * An integral's limits stand beside it unless `\limits` centres them under and over it. TeX pulls
 * the lower script left under the sign's tail by its slant: at 150 dpi the `-` of `\int_{-a}`
 * reaches under the tail while its `a` does not, so the `-` alone passed for a limit line. A line
 * that ink beside it continues at its height, not under the sign, is part of a script.
 */
function sideFree(lines: Element[][], operator: Element, pool: Element[], em: number): Element[][] {
  if (!INTEGRALS.has(operatorLatex(operator) ?? '')) return lines;
  const continued = (line: Element[]) => {
    const band = unionBox(line.map((e) => e.box));
    return pool.some(
      (element) =>
        element !== operator &&
        !line.includes(element) &&
        overlap(element.box.y0, element.box.y1, band.y0, band.y1) >= 0.5 * height(band) &&
        Math.max(element.box.x0 - band.x1, band.x0 - element.box.x1) < PIECE_GAP_EM * em,
    );
  };
  return lines.some(continued) ? [] : lines;
}

/**
 * Whether an upper limit line is set a style smaller than its operator, as TeX sets limits: a
 * word operator that knows its size (`\max`) with a line as large as itself over it is a script's
 * word with the script beside it (`\lambda_{\max}^{1-q}`, where the superscript of λ stands over
 * the subscript `\max`), even where the row's elements are mostly script-size. Not under: the
 * arrow under `\varinjlim` is as large as the name.
 */
function smallerThan(line: Element[], operator: Element): boolean {
  const ems = line.flatMap((element) => (element.em === null ? [] : [element.em]));
  return operator.em === null || ems.length === 0 || Math.max(...ems) < SCRIPT_SHARE * operator.em;
}

/** One line of limits is its row; several stacked lines are `\substack{…\\…}`. */
function limitNodes(lines: Element[][], parseRow: ParseRow): Node[] {
  if (lines.length < 2) return lines.length === 1 ? parseRow(lines[0]!).nodes : [];
  return [{ kind: 'rows', environment: 'substack', rows: lines.map((line) => [parseRow(line).nodes]) }];
}

/** The limit lines from the nearer-centre pieces (`own`), or, when one of those is off-centre, the centred lines from the `wide` pool if it has them. */
function ownLimitLines(own: Element[], wide: Element[], operator: Element, side: 'under' | 'over', em: number): Element[][] {
  const lines = limitLines(own, operator, side, em).map((line) => recentred(line, wide, operator, em));
  if (lines.every((line) => isCentred(line, operator, OFF_CENTRE_EM * em))) return lines;
  const centred = limitLines(wide, operator, side, em, (line) => centredRun(line, operator, em));
  return centred.length === lines.length && centred.every((line) => isCentred(line, operator, OFF_CENTRE_EM * em)) ? centred : lines;
}

/**
 * A limit line with the pieces that touch its ends and bring it nearer its operator's centre: a
 * wide limit (`\sum_{k_1+\cdots+k_q=k}`) ends nearer the next operator's centre than its own, so
 * its last piece was left out of the pieces nearer this one.
 */
function recentred(line: Element[], pool: Element[], operator: Element, em: number): Element[] {
  const offset = (elements: Element[]) => Math.abs(centreX(unionBox(elements.map((e) => e.box))) - centreX(operator.box));
  let kept = line;
  for (let grown = true; grown;) {
    grown = false;
    const band = unionBox(kept.map((e) => e.box));
    for (const element of pool) {
      if (kept.includes(element) || overlap(element.box.y0, element.box.y1, band.y0, band.y1) <= 0.3 * height(element.box)) continue;
      if (Math.max(element.box.x0 - band.x1, band.x0 - element.box.x1) >= PIECE_GAP_EM * em) continue;
      if (offset([...kept, element]) >= offset(kept)) continue;
      kept = [...kept, element];
      grown = true;
      break;
    }
  }
  return kept;
}

/** The limit lines on one side, nearest first: the first within LIMIT_GAP_EM, each next one within STACK_GAP_EM of the last. */
function limitLines(pool: Element[], operator: Element, side: 'under' | 'over', em: number, trim = (line: Element[]) => line): Element[][] {
  const lines: Element[][] = [];
  let reference = operator.box;
  for (let gap = LIMIT_GAP_EM; ; gap = STACK_GAP_EM) {
    const free = pool.filter((element) => !lines.some((line) => line.includes(element)));
    const line = trim(limitLine(free, operator, reference, side, gap * em, em));
    if (line.length === 0) return lines;
    lines.push(line);
    reference = { ...operator.box, ...(side === 'under' ? { y1: unionBox(line.map((e) => e.box)).y1 } : { y0: unionBox(line.map((e) => e.box)).y0 }) };
  }
}

/** The line of elements beyond `op` (the operator, or the limit line before) on `side`, starting within `reach` and under the operator. */
function limitLine(pool: Element[], operator: Element, op: Box, side: 'under' | 'over', reach: number, em: number): Element[] {
  const slack = 0.05 * height(operator.box);
  const beyond = (element: Element) => element !== operator && (side === 'under' ? element.box.y0 >= op.y1 - slack : element.box.y1 <= op.y0 + slack);
  const near = (element: Element) => (side === 'under' ? element.box.y0 - op.y1 : op.y0 - element.box.y1) < reach;
  const line = pool.filter((element) => beyond(element) && near(element) && overlap(element.box.x0, element.box.x1, op.x0, op.x1) > 0);
  if (line.length === 0) return [];
  for (let grown = true; grown;) {
    grown = false;
    const band = unionBox(line.map((element) => element.box));
    for (const element of pool) {
      if (line.includes(element) || !beyond(element)) continue;
      const touchesVertically = overlap(element.box.y0, element.box.y1, band.y0, band.y1) > 0.3 * height(element.box);
      const gap = Math.max(element.box.x0 - band.x1, band.x0 - element.box.x1);
      if (touchesVertically && gap < PIECE_GAP_EM * em) {
        line.push(element);
        grown = true;
      }
    }
  }
  return line;
}

const MULTIPLE_INTEGRALS = ['\\int', '\\iint', '\\iiint', '\\iiiint'];
/** Signs whose limits TeX sets beside them (sideFree). */
const INTEGRALS = new Set([...MULTIPLE_INTEGRALS, '\\oint']);

/** TeX sets `\iint`, `\iiint` and `\iiiint` as integral signs pulled together; glyphs that close are one operator. */
function mergeIntegrals(elements: Element[]): Element[] {
  const signs = elements.filter((element) => glyphOf(element, '\\int')).sort((a, b) => a.box.x0 - b.box.x0);
  const runs: Element[][] = [];
  for (const sign of signs) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    const close =
      last && sign.box.x0 - last.box.x1 < 0.15 * height(sign.box) && overlap(sign.box.y0, sign.box.y1, last.box.y0, last.box.y1) > 0.8 * height(sign.box);
    if (close && run.length < MULTIPLE_INTEGRALS.length) run.push(sign);
    else runs.push([sign]);
  }
  const merged = runs.filter((run) => run.length > 1);
  const inRun = new Set(merged.flat());
  return [
    ...elements.filter((element) => !inRun.has(element)),
    ...merged.map((run) => {
      const node = { kind: 'merged' as const, latex: MULTIPLE_INTEGRALS[run.length - 1], glyphs: run.map((sign) => glyphOf(sign) as Glyph) };
      return { node, box: unionBox(run.map((sign) => sign.box)), em: run[0].em, baselineFor: run[0].baselineFor };
    }),
  ];
}
