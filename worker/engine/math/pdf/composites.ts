import type { Box, MathSymbol } from '../types.js';
import type { FontFamily } from './tex-fonts.js';

/**
 * Symbols TeX builds from several glyphs, joined back into the one token a person typed:
 * long and extensible arrows (`\longrightarrow`, `\xrightarrow`'s shaft, `\mapsto`,
 * `\hookrightarrow`: shaft pieces overlapping a head), negated relations (a slash struck through a
 * relation: `\neq`, `\notin`, `\nleq` …), relations stacked from two glyphs (`\cong`, `\doteq`)
 * and pairs set with `\joinrel` (`\models`, `\bowtie`). Glyphs only join when their ink overlaps,
 * which separate symbols set side by side never do.
 */

/** Arrow pieces with no meaning of their own; pdf.js hands back their character codes as ASCII. */
const ARROW_PIECES = ['@mapstochar', '@lhook', '@rhook'] as const;
type ArrowPiece = (typeof ARROW_PIECES)[number];
const isArrowPiece = (latex: string) => (ARROW_PIECES as readonly string[]).includes(latex);

/** CMSY's mapstochar (code 55) and CMMI's hooks (codes 44, 45), which TeX only sets against an arrow. */
export function arrowPiece(family: FontFamily, code: number): ArrowPiece | undefined {
  if (family === 'symbols' && code === 55) return '@mapstochar';
  if (family === 'math-italic' && code === 44) return '@lhook';
  if (family === 'math-italic' && code === 45) return '@rhook';
  return undefined;
}

const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });
const width = (b: Box) => b.x1 - b.x0;
const height = (b: Box) => b.y1 - b.y0;
const sizeOf = (s: MathSymbol) => s.size ?? height(s.box);

/** Two glyphs of one line and one size. */
function sameLine(a: MathSymbol, b: MathSymbol): boolean {
  const size = Math.max(sizeOf(a), sizeOf(b));
  if (Math.abs(sizeOf(a) - sizeOf(b)) > 0.1 * size) return false;
  return a.baseline !== undefined && b.baseline !== undefined && Math.abs(a.baseline - b.baseline) < 0.1 * size;
}

/**
 * `b` continues `a` to the right with their ink overlapping or all but touching: TeX's `\joinrel`
 * backs a piece 3 mu into the previous one, while symbols set side by side keep a gap of at least
 * 0.1 em between their ink.
 */
function touches(a: MathSymbol, b: MathSymbol): boolean {
  return b.box.x1 > a.box.x1 && b.box.x0 < a.box.x1 + 0.03 * Math.max(sizeOf(a), sizeOf(b));
}

/** The token of a chain of arrow glyphs, left to right, or undefined when it is not one arrow. */
function arrowOf(chain: string[]): string | undefined {
  const [first, last] = [chain[0], chain[chain.length - 1]];
  const inner = chain.slice(1, -1);
  const all = (token: string) => inner.every((t) => t === token);
  if (first === '\\leftarrow' && last === '\\rightarrow' && all('-')) return '\\longleftrightarrow';
  if (first === '\\Leftarrow' && last === '\\Rightarrow' && all('=')) return '\\Longleftrightarrow';
  if (first === '@mapstochar' && last === '\\rightarrow' && all('-')) return inner.length === 0 ? '\\mapsto' : '\\longmapsto';
  if (first === '@lhook' && last === '\\rightarrow' && all('-')) return '\\hookrightarrow';
  if (first === '\\leftarrow' && last === '@rhook' && all('-')) return '\\hookleftarrow';
  if (last === '\\rightarrow' && chain.slice(0, -1).every((t) => t === '-')) return '\\longrightarrow';
  if (first === '\\leftarrow' && chain.slice(1).every((t) => t === '-')) return '\\longleftarrow';
  if (last === '\\Rightarrow' && chain.slice(0, -1).every((t) => t === '=')) return '\\Longrightarrow';
  if (first === '\\Leftarrow' && chain.slice(1).every((t) => t === '=')) return '\\Longleftarrow';
  if (chain.length === 2 && first === '|' && last === '=') return '\\models';
  if (chain.length === 2 && first === '\\triangleright' && last === '\\triangleleft') return '\\bowtie';
  return undefined;
}

const CHAIN_TOKENS = new Set<string>([
  '-',
  '=',
  '|',
  '\\rightarrow',
  '\\leftarrow',
  '\\Rightarrow',
  '\\Leftarrow',
  '\\triangleright',
  '\\triangleleft',
  ...ARROW_PIECES,
]);

/** The symbol standing for `parts`: their joint ink, the line and size of the widest. */
function joined(latex: string, parts: MathSymbol[]): MathSymbol {
  const widest = parts.reduce((a, b) => (width(b.box) > width(a.box) ? b : a));
  return { ...widest, latex, box: parts.map((p) => p.box).reduce(union) };
}

/**
 * Joins runs of arrow pieces whose ink overlaps (TeX's `\joinrel` backs each piece into the
 * previous one) into one arrow. Pieces left alone (a hook without its arrow) are dropped: they
 * stand for nothing by themselves.
 */
export function joinArrows(symbols: MathSymbol[]): MathSymbol[] {
  const candidates = symbols.filter((s) => CHAIN_TOKENS.has(s.latex)).sort((a, b) => a.box.x0 - b.box.x0);
  const used = new Set<MathSymbol>();
  const out: MathSymbol[] = [];
  for (const start of candidates) {
    if (used.has(start)) continue;
    const chain = [start];
    for (;;) {
      const last = chain[chain.length - 1];
      const next = candidates.find((c) => !used.has(c) && !chain.includes(c) && touches(last, c) && sameLine(last, c));
      if (!next) break;
      chain.push(next);
    }
    const latex = chain.length > 1 ? arrowOf(chain.map((s) => s.latex)) : undefined;
    if (latex === undefined) continue;
    chain.forEach((s) => used.add(s));
    out.push(joined(latex, chain));
  }
  const rest = symbols.filter((s) => !used.has(s) && !isArrowPiece(s.latex) && !isInnerShaft(s, symbols));
  return [...rest, ...out];
}

const SHAFTED_ARROWS = new Set(['\\leftarrow', '\\rightarrow', '\\leftrightarrow']);

/**
 * A minus wholly inside an arrow glyph on its line: the shaft of an extensible arrow shorter than
 * its head's glyph (`\xleftarrow{c}` with a one-letter label backs its fill into the arrow).
 */
function isInnerShaft(s: MathSymbol, symbols: MathSymbol[]): boolean {
  return s.latex === '-' && symbols.some((a) => SHAFTED_ARROWS.has(a.latex) && s.box.x0 >= a.box.x0 && s.box.x1 <= a.box.x1 && sameLine(a, s));
}

/** Relations with a negated command of their own; others keep their `\not` for the parser. */
const NEGATED: Record<string, string> = {
  '=': '\\neq',
  '\\in': '\\notin',
  '\\leq': '\\nleq',
  '\\geq': '\\ngeq',
  '<': '\\nless',
  '>': '\\ngtr',
  '\\subseteq': '\\nsubseteq',
  '\\supseteq': '\\nsupseteq',
  '\\sim': '\\nsim',
  '\\cong': '\\ncong',
  '|': '\\nmid',
  '\\|': '\\nparallel',
  '\\exists': '\\nexists',
  '\\prec': '\\nprec',
  '\\succ': '\\nsucc',
  '\\preceq': '\\npreceq',
  '\\succeq': '\\nsucceq',
  '\\vdash': '\\nvdash',
  '\\models': '\\nvDash',
  '\\rightarrow': '\\nrightarrow',
  '\\leftarrow': '\\nleftarrow',
  '\\leftrightarrow': '\\nleftrightarrow',
  '\\Rightarrow': '\\nRightarrow',
  '\\Leftarrow': '\\nLeftarrow',
  '\\Leftrightarrow': '\\nLeftrightarrow',
};

/**
 * Strikes: a `\not` slash (or the `/` LaTeX's `\notin` sets) whose ink centre lies inside a
 * relation's ink becomes that relation's negation. A `/` between two symbols never lies inside one.
 */
export function joinNegations(symbols: MathSymbol[]): MathSymbol[] {
  const used = new Set<MathSymbol>();
  const out: MathSymbol[] = [];
  for (const slash of symbols.filter((s) => s.latex === '\\not' || s.latex === '/')) {
    const cx = (slash.box.x0 + slash.box.x1) / 2;
    const cy = (slash.box.y0 + slash.box.y1) / 2;
    const struck = symbols.find(
      (s) =>
        !used.has(s) &&
        s !== slash &&
        NEGATED[s.latex] !== undefined &&
        cx > s.box.x0 &&
        cx < s.box.x1 &&
        cy > s.box.y0 - 0.1 * sizeOf(s) &&
        cy < s.box.y1 + 0.1 * sizeOf(s),
    );
    if (!struck) continue;
    used.add(slash).add(struck);
    out.push({ ...struck, latex: NEGATED[struck.latex], box: union(slash.box, struck.box) });
  }
  return [...symbols.filter((s) => !used.has(s)), ...out];
}

/** Relations TeX stacks from two glyphs, by the upper glyph; the lower one is always '='. */
const STACKED: Record<string, string> = { '\\sim': '\\cong', '.': '\\doteq' };

/** `\cong` (∼ over =) and `\doteq` (. over =): the upper glyph centred just above an '='. */
export function joinStacked(symbols: MathSymbol[]): MathSymbol[] {
  const used = new Set<MathSymbol>();
  const out: MathSymbol[] = [];
  for (const equals of symbols.filter((s) => s.latex === '=')) {
    const centre = (equals.box.x0 + equals.box.x1) / 2;
    const upper = symbols.find(
      (s) =>
        !used.has(s) &&
        STACKED[s.latex] !== undefined &&
        Math.abs((s.box.x0 + s.box.x1) / 2 - centre) < 0.2 * width(equals.box) &&
        s.box.y1 <= equals.box.y0 &&
        equals.box.y0 - s.box.y1 < 0.25 * sizeOf(equals) &&
        width(s.box) <= 1.1 * width(equals.box),
    );
    if (!upper) continue;
    used.add(upper).add(equals);
    out.push({ ...equals, latex: STACKED[upper.latex], box: union(upper.box, equals.box) });
  }
  return [...symbols.filter((s) => !used.has(s)), ...out];
}
