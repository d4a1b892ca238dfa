import type { MathSymbol } from '../types.js';

/** Delimiter kinds as [opener, closer]. */
const KINDS: ReadonlyArray<readonly [string, string]> = [
  ['(', ')'],
  ['[', ']'],
  ['\\{', '\\}'],
  ['\\langle', '\\rangle'],
];
const OPENERS = new Set(KINDS.map(([open]) => open));
const CLOSERS = new Set(KINDS.map(([, close]) => close));

/**
 * Delimiter pairs read as one kind. A hand's `(` and `\langle`, `)` and `\rangle` (or `]` and `\}`)
 * differ in a curve's roundness, which the classifier splits between two kinds; an open and a
 * close delimiter that pair up (left to right, innermost first) are one kind. Where the two were
 * read as different kinds, the surer one decides, and the other takes its kind when that is among
 * its alternatives (a `3` misread as `\}` has no `)` there and stays). Its probability is then
 * that of its delimiter readings together, as the pair decided the kind (as an upright and an
 * italic letter are pooled). Delimiters without a partner stay as read.
 */
export function pairDelimiters(symbols: readonly MathSymbol[]): MathSymbol[] {
  const out = [...symbols];
  const open: number[] = [];
  symbols.forEach((symbol, index) => {
    if (OPENERS.has(symbol.latex)) open.push(index);
    else if (CLOSERS.has(symbol.latex) && open.length) {
      const opener = open.pop()!;
      const [a, b] = [symbols[opener]!, symbol];
      if (KINDS.some(([o, c]) => o === a.latex && c === b.latex)) return;
      if (a.confidence >= b.confidence) {
        const close = KINDS.find(([o]) => o === a.latex)![1];
        if (probability(b, close) > 0) out[index] = asKind(b, close, CLOSERS);
      } else {
        const start = KINDS.find(([, c]) => c === b.latex)![0];
        if (probability(a, start) > 0) out[opener] = asKind(a, start, OPENERS);
      }
    }
  });
  return out;
}

function probability(symbol: MathSymbol, latex: string): number {
  if (symbol.latex === latex) return symbol.confidence;
  return symbol.alternatives?.find((alternative) => alternative.latex === latex)?.confidence ?? 0;
}

/** `symbol` read as `latex`, with the probability of every reading in `side` (all openers or all closers). */
function asKind(symbol: MathSymbol, latex: string, side: ReadonlySet<string>): MathSymbol {
  if (symbol.latex === latex) return symbol;
  const readings = [{ latex: symbol.latex, confidence: symbol.confidence }, ...(symbol.alternatives ?? [])];
  const mass = readings.filter((reading) => side.has(reading.latex)).reduce((sum, reading) => sum + reading.confidence, 0);
  const alternatives = readings.filter((reading) => reading.latex !== latex).slice(0, symbol.alternatives?.length ?? 0);
  return { ...symbol, latex, confidence: Math.min(1, mass), alternatives };
}
