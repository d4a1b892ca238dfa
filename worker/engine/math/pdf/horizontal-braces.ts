import { type Box, type MathSymbol, OVERBRACE, UNDERBRACE } from '../types.js';
import { BRACE_PIECES } from './cmex.js';

/** Pieces and rules of one brace meet within this (points): TeX sets them edge to edge. */
const JOIN_PT = 0.6;

const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });
const overlapsY = (a: Box, b: Box) => Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);
const PIECES = new Set<string>(Object.values(BRACE_PIECES));
/** newtx fills a brace between its pieces with a row of macron glyphs (txexas) instead of a rule. */
const FILLER = '\\bar';

/**
 * Joins `\underbrace`'s and `\overbrace`'s pieces with the rules between them into one UNDERBRACE or
 * OVERBRACE symbol spanning the brace. TeX draws an underbrace as up-left end, rule, down-right and
 * down-left tips, rule, up-right end, and an overbrace the other way up, so the left end tells
 * which. Rules not in a brace are returned. The joints may overlap: a filler glyph starts inside
 * the piece before it.
 */
export function joinHorizontalBraces(symbols: MathSymbol[], rules: Box[]): { symbols: MathSymbol[]; rules: Box[] } {
  if (!symbols.some((s) => PIECES.has(s.latex))) return { symbols, rules };
  const used = new Set<MathSymbol | Box>();
  const braces: MathSymbol[] = [];
  const starts = symbols.filter((s) => s.latex === BRACE_PIECES.upLeft || s.latex === BRACE_PIECES.downLeft).sort((a, b) => a.box.x0 - b.box.x0);
  for (const start of starts) {
    if (used.has(start)) continue;
    const end = start.latex === BRACE_PIECES.upLeft ? BRACE_PIECES.upRight : BRACE_PIECES.downRight;
    const chain: Array<MathSymbol | Box> = [start];
    let box = start.box;
    for (;;) {
      const next = [
        ...symbols
          .filter((s) => (PIECES.has(s.latex) || s.latex === FILLER) && !used.has(s) && !chain.includes(s))
          .map((s) => ({ item: s as MathSymbol | Box, box: s.box })),
        ...rules.filter((r) => !used.has(r) && !chain.includes(r)).map((r) => ({ item: r as MathSymbol | Box, box: r })),
      ]
        .filter((c) => c.box.x0 >= start.box.x0 && c.box.x0 <= box.x1 + JOIN_PT && c.box.x1 > box.x1 && overlapsY(c.box, start.box))
        .sort((a, b) => a.box.x0 - b.box.x0)[0];
      if (!next) break;
      chain.push(next.item);
      box = union(box, next.box);
      if ('latex' in next.item && next.item.latex === end) break;
    }
    const last = chain[chain.length - 1]!;
    if (!('latex' in last) || last.latex !== end || chain.length < 4) continue;
    chain.forEach((item) => used.add(item));
    braces.push({ latex: start.latex === BRACE_PIECES.upLeft ? UNDERBRACE : OVERBRACE, box, confidence: 1 });
  }
  return {
    symbols: [...symbols.filter((s) => !used.has(s)), ...braces],
    rules: rules.filter((r) => !used.has(r)),
  };
}
