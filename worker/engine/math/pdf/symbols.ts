import { isTypewriterFont } from '../../../../page/processors/text-layer-code.js';
import { type Box, FRAME, type MathSymbol, RADICAL, RULE, type SymbolStyle } from '../types.js';
import { cmexGlyph, isCmexToken, type CmexGlyph } from './cmex.js';
import { arrowPiece, joinArrows, joinNegations, joinStacked } from './composites.js';
import { boldMaths, inBoldVersion, withOverprintsMerged } from './bold-glyphs.js';
import { joinDotStacks } from '../dot-stacks.js';
import { joinHorizontalBraces } from './horizontal-braces.js';
import { backslashesBySpacing, phiByShape } from './twin-glyphs.js';
import { mathItalicUnicode } from './oml-codes.js';
import { mathSymbolUnicode } from './oms-codes.js';
import type { PdfGlyph, PdfPageMath } from './page-reader.js';
import { glyphToken, isMathFamily, isRawCode, tokenByCode } from './tex-fonts.js';

/**
 * A region of a born-digital page → the layout parser's symbols: one token per glyph, the pieces
 * of extensible delimiters stacked back into one tall delimiter, symbols TeX composes from several
 * glyphs joined into one (composites.ts), each radical sign joined with the rule that continues
 * it, and every other thin horizontal rule as RULE.
 */

type Part = CmexGlyph['part'];
interface Piece extends MathSymbol {
  part: Part;
}

/** Unicode's delimiter pieces (OpenType maths fonts, and TeX names pdf.js does know). */
const UNICODE_PIECES: Record<string, [string, Part]> = {
  '\u239B': ['(', 'top'],
  '\u239C': ['(', 'extender'],
  '\u239D': ['(', 'bottom'],
  '\u239E': [')', 'top'],
  '\u239F': [')', 'extender'],
  '\u23A0': [')', 'bottom'],
  '\u23A1': ['[', 'top'],
  '\u23A2': ['[', 'extender'],
  '\u23A3': ['[', 'bottom'],
  '\u23A4': [']', 'top'],
  '\u23A5': [']', 'extender'],
  '\u23A6': [']', 'bottom'],
  '\u23A7': ['\\{', 'top'],
  '\u23A8': ['\\{', 'middle'],
  '\u23A9': ['\\{', 'bottom'],
  '\u23AA': ['\\{', 'extender'],
  '\u23AB': ['\\}', 'top'],
  '\u23AC': ['\\}', 'middle'],
  '\u23AD': ['\\}', 'bottom'],
  '\u23B7': [RADICAL, 'bottom'],
  '\u23D0': ['|', 'extender'],
};

/**
 * One glyph as a symbol with its part (whole, or a piece of something taller); undefined for spaces.
 * `boldVersion`: the formula is set in a bold maths version, whose bold is no `\boldsymbol`.
 */
export function glyphSymbol(g: PdfGlyph, boldVersion = false): Piece | undefined {
  const common = { box: g.box, confidence: 1, baseline: g.baseline, size: g.size };
  const cmex = g.font.family === 'extension' ? extensionGlyph(g) : undefined;
  if (cmex) return { ...common, latex: cmex.latex, part: cmex.part };
  const piece = UNICODE_PIECES[g.unicode];
  if (piece) return { ...common, latex: piece[0], part: piece[1] };
  const known = (isRawCode(g.unicode, g.code) ? tokenByCode(g.font.family, g.code) : undefined) ?? hookPiece(g);
  if (known) return { ...common, latex: known, part: 'whole' };
  const unicode = rawCodeUnicode(g);
  const token = glyphToken(unicode, g.font.family);
  if (!token) return undefined;
  const plain = typewriterLetter(g, token.style ?? uprightTextLetter(g, token.latex));
  const style = boldVersion ? plain : boldMaths(g, token.latex, plain);
  return { ...common, latex: phiByShape(g, token.latex), part: 'whole', ...(style ? { style } : {}) };
}

/**
 * A CMEX glyph by its character code, unless pdf.js named it as something else. A font subset
 * again by Acrobat Distiller numbers its glyphs afresh (a text-style `\sum` at code 2, which is
 * CMEX's `[`), and then only the glyph names, which pdf.js turns into Unicode, still say what
 * they are; pdfTeX's and Ghostscript's fonts keep CMEX's codes, and pdf.js hands back the raw
 * code for the names it does not know.
 */
function extensionGlyph(g: PdfGlyph): CmexGlyph | undefined {
  const byCode = cmexGlyph(g.code, g.font.name);
  if (isRawCode(g.unicode, g.code)) return byCode;
  const named = namedExtensionGlyph(g.unicode);
  if (!named || !byCode) return byCode ?? named;
  return stackKey(named.latex) === stackKey(byCode.latex) ? byCode : named;
}

/** An extension-font glyph by the Unicode pdf.js gave its name: a piece, a bar, a big operator or a delimiter. */
function namedExtensionGlyph(unicode: string): CmexGlyph | undefined {
  const piece = UNICODE_PIECES[unicode];
  if (piece) return { latex: piece[0], part: piece[1] };
  // CMEX's bars are the extenders of | and \|, and each is also their smallest size alone.
  if (unicode === '\u2225' || unicode === '\u2016') return { latex: '\\|', part: 'extender' };
  if (unicode === '|' || unicode === '\u2223') return { latex: '|', part: 'extender' };
  const token = glyphToken(unicode, 'extension')?.latex;
  return token && isCmexToken(token) ? { latex: token, part: 'whole' } : undefined;
}

/** The glyph's Unicode, read from TeX's encoding where pdf.js could only return the maths italic's or symbol font's raw code. */
function rawCodeUnicode(g: PdfGlyph): string {
  if (g.font.family === 'math-italic') return mathItalicUnicode(g.unicode, g.code);
  return g.font.family === 'symbols' ? mathSymbolUnicode(g.unicode, g.code) : g.unicode;
}

/** A frame's rules meet within this (points): TeX butts them exactly. */
const FRAME_TOLERANCE_PT = 0.5;
/** A text font's bold weights, by name (TeXGyreTermesX-Bold, TimesNewRomanPS-BoldMT, MinionPro-Semibold). */
const BOLD_FONT = /bold|black|heavy|semibold|demi/i;

/**
 * A Latin letter of a text font TeX does not name (Termes, Bera, Times) that is not its italic:
 * upright, as `\text{if}` and `\mathrm{d}` set it beside maths-font letters, or bold in the font's
 * bold weight, as newtx's `\mathbf{q}` sets it.
 */
function uprightTextLetter(g: PdfGlyph, latex: string): 'upright' | 'bold' | undefined {
  if (g.font.family !== 'other' || g.font.italic || !/^[A-Za-z]$/u.test(latex)) return undefined;
  return BOLD_FONT.test(g.font.name) ? 'bold' : 'upright';
}

/** An upright letter in a typewriter face is a `\texttt` name (`\texttt{width} = …`), as a manual sets a length or a key in maths. */
const typewriterLetter = (g: PdfGlyph, style: SymbolStyle | undefined) => (style === 'upright' && isTypewriterFont(g.font.name) ? 'typewriter' : style);

/**
 * An arrow piece known by its code (CMMI's hooks, CMSY's mapstochar), unless its ink hangs below
 * the baseline: a maths italic font re-encoded as WinAnsi (a TrueType CMMI) has its comma at the
 * left hook's code 44, and a hook sits on the arrow's axis, above the baseline.
 */
function hookPiece(g: PdfGlyph): string | undefined {
  const piece = isRawCode(g.unicode, g.code) ? arrowPiece(g.font.family, g.code) : undefined;
  return piece && g.box.y1 > g.baseline + 0.1 * g.size ? undefined : piece;
}

/**
 * The glyphs' symbols. Where a formula has no letter from a maths font, its letters in a text
 * italic are its identifiers (a document that sets maths in the text italic, as lazylist does), so
 * they are italic rather than upright `\text{}` words; beside maths-font letters they are text.
 */
function withTextItalicLetters(glyphs: PdfGlyph[]): Piece[] {
  const boldVersion = inBoldVersion(glyphs);
  const read = glyphs.flatMap((g) => {
    const symbol = glyphSymbol(g, boldVersion);
    return symbol ? ligatureLetters(symbol).map((letter) => ({ g, symbol: letter })) : [];
  });
  const mathLetters = read.some(({ g, symbol }) => symbol.style !== undefined && isMathFamily(g.font.family));
  return read.map(({ g, symbol }) => (!mathLetters && symbol.style === 'upright' && g.font.italic ? { ...symbol, style: 'italic' } : symbol));
}

/** The text fonts' ligatures (U+FB00–FB06) and the letters they join. */
const LIGATURES: Record<string, string> = { '\uFB00': 'ff', '\uFB01': 'fi', '\uFB02': 'fl', '\uFB03': 'ffi', '\uFB04': 'ffl', '\uFB05': 'st', '\uFB06': 'st' };
const LIGATURE_LETTERS = new Set(Object.values(LIGATURES));

/**
 * A ligature glyph (`\text{the ﬁnal}` set in a text font) as its letters, each an upright letter
 * with an equal share of its box, so the word it sits in reads as one run of letters.
 */
function ligatureLetters(symbol: Piece): Piece[] {
  // pdf.js names a Type 1 font's ligature by its letters (`fi`) where the font has no Unicode for it.
  const letters = LIGATURES[symbol.latex] ?? (LIGATURE_LETTERS.has(symbol.latex) ? symbol.latex : undefined);
  if (!letters) return [symbol];
  const width = (symbol.box.x1 - symbol.box.x0) / letters.length;
  return [...letters].map((latex, i) => ({
    ...symbol,
    latex,
    style: symbol.style === 'bold' ? 'bold' : 'upright',
    box: { ...symbol.box, x0: symbol.box.x0 + i * width, x1: symbol.box.x0 + (i + 1) * width },
  }));
}

const centre = (b: Box) => ({ x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 });
const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });

export function inside(b: Box, region: Box): boolean {
  const c = centre(b);
  return c.x >= region.x0 && c.x <= region.x1 && c.y >= region.y0 && c.y <= region.y1;
}

/**
 * The symbols whose ink centre lies in `region` (page points, y down), ready for parseLayout. A
 * frame counts by its centre: its rules lie outside a region drawn around the ink it holds.
 */
export function symbolsInRegion(page: PdfPageMath, region: Box): MathSymbol[] {
  const glyphs = page.glyphs.filter((g) => inside(g.box, region));
  const { frames, rest } = framesOf(page.rules, page.verticalRules ?? []);
  const rules = rest.filter((r) => inside(r, region) || hugsEdge(r, region, glyphs));
  const held = frames.filter((frame) => inside(frame.box, region));
  return [...symbolsFrom(glyphs, rules), ...held].sort((a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0);
}

/** An overline or underline stands this far (share of the glyphs' size) from the ink it marks. */
const HUG_SHARE = 0.3;

/**
 * A rule just outside a region's ink, over (or under) glyphs of the region and no wider than it:
 * the overline of its tallest part (`\overline{\lim}`, `\overline{AB}`), which a region drawn
 * around the glyphs' ink leaves out. A table's rule is wider than the maths in its cell.
 */
function hugsEdge(rule: Box, region: Box, glyphs: PdfGlyph[]): boolean {
  const size = glyphs.length ? Math.max(...glyphs.map((g) => g.size)) : 0;
  const reach = HUG_SHARE * size;
  if (rule.x0 < region.x0 - reach || rule.x1 > region.x1 + reach) return false;
  const under = (g: PdfGlyph) => Math.min(g.box.x1, rule.x1) > Math.max(g.box.x0, rule.x0);
  return glyphs.some((g) => under(g) && ((g.box.y0 >= rule.y1 && g.box.y0 - rule.y1 <= reach) || (rule.y0 >= g.box.y1 && rule.y0 - g.box.y1 <= reach)));
}

/**
 * Frames (`\boxed`): a top and a bottom rule of one span with a vertical rule down each end. Each
 * becomes one FRAME symbol; the horizontal rules not in a frame are returned in `rest`.
 */
function framesOf(rules: Box[], sides: Box[]): { frames: MathSymbol[]; rest: Box[] } {
  if (sides.length < 2) return { frames: [], rest: rules };
  const near = (a: number, b: number) => Math.abs(a - b) <= FRAME_TOLERANCE_PT;
  const used = new Set<Box>();
  const frames: MathSymbol[] = [];
  for (const top of rules) {
    if (used.has(top)) continue;
    const bottom = rules.find((r) => r !== top && !used.has(r) && r.y0 > top.y1 && near(r.x0, top.x0) && near(r.x1, top.x1));
    if (!bottom) continue;
    const side = (x: number) =>
      sides.some((s) => s.x0 - FRAME_TOLERANCE_PT <= x && s.x1 + FRAME_TOLERANCE_PT >= x && near(s.y0, top.y0) && near(s.y1, bottom.y1));
    if (!side(top.x0) || !side(top.x1)) continue;
    used.add(top).add(bottom);
    frames.push({ latex: FRAME, box: union(top, bottom), confidence: 1 });
  }
  return { frames, rest: rules.filter((r) => !used.has(r)) };
}

/** Glyphs and rules → symbols, pieces stacked, composites joined and radicals merged, in left-to-right order. */
export function symbolsFrom(glyphs: PdfGlyph[], rules: Box[]): MathSymbol[] {
  const pieces = withOverprintsMerged(withTextItalicLetters(glyphs));
  const stacked = stackPieces(pieces);
  // Arrows first: a slash may strike a long arrow, and the '=' of a \Longrightarrow is no \cong's.
  const composed = joinStacked(joinNegations(joinArrows(joinDotStacks(stacked))));
  const braces = joinHorizontalBraces(composed, rules);
  const merged = mergeRadicals(braces.symbols, braces.rules);
  return backslashesBySpacing(merged).sort((a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0);
}

/** Braces share one extender glyph, so a stack's family ignores which brace a piece names. */
const stackKey = (latex: string) => (latex === '\\{' || latex === '\\}' ? 'brace' : latex);

/**
 * Stacks delimiter pieces that touch vertically and overlap horizontally into one symbol whose box
 * spans them all. A lone extender (a \big| drawn from the bar piece) stays a symbol by itself.
 */
function stackPieces(symbols: Piece[]): MathSymbol[] {
  const out: MathSymbol[] = [];
  const stacks: Piece[][] = [];
  const pieces = symbols.filter((s) => s.part !== 'whole').sort((a, b) => a.box.y0 - b.box.y0);
  for (const p of pieces) {
    const tolerance = Math.max(1, 0.3 * (p.size ?? 10));
    const stack = stacks.find((st) => {
      const last = st[st.length - 1];
      const overlap = Math.min(last.box.x1, p.box.x1) - Math.max(last.box.x0, p.box.x0);
      const narrower = Math.min(last.box.x1 - last.box.x0, p.box.x1 - p.box.x0);
      return stackKey(last.latex) === stackKey(p.latex) && overlap >= 0.5 * narrower && p.box.y0 - last.box.y1 <= tolerance;
    });
    if (stack) stack.push(p);
    else stacks.push([p]);
  }
  for (const st of stacks) {
    const named = st.find((p) => p.part !== 'extender') ?? st[0];
    const box = st.map((p) => p.box).reduce(union);
    out.push({ latex: bracketKind(named.latex, st), box, confidence: 1, baseline: box.y1, size: named.size });
  }
  for (const s of symbols) if (s.part === 'whole') out.push(withoutPart(s));
  return out;
}

/** Tall floors and ceilings are a bracket's extender with only its bottom or only its top piece. */
function bracketKind(latex: string, stack: Piece[]): string {
  if (latex !== '[' && latex !== ']') return latex;
  const has = (part: Part) => stack.some((p) => p.part === part);
  if (has('bottom') && !has('top')) return latex === '[' ? '\\lfloor' : '\\rfloor';
  if (has('top') && !has('bottom')) return latex === '[' ? '\\lceil' : '\\rceil';
  return latex;
}

function withoutPart(p: Piece): MathSymbol {
  const { part: _part, ...symbol } = p;
  return symbol;
}

/**
 * Joins each radical sign with the rule starting at its top right (the vinculum), so the radical's
 * box covers the radicand; rules left over become RULE symbols.
 */
function mergeRadicals(symbols: MathSymbol[], rules: Box[]): MathSymbol[] {
  const free = [...rules];
  const out = symbols.map((s) => {
    if (s.latex !== RADICAL) return s;
    const reach = Math.max(1, 0.3 * (s.size ?? s.box.y1 - s.box.y0));
    let best = -1;
    let bestDistance = Infinity;
    free.forEach((r, i) => {
      const dx = Math.abs(r.x0 - s.box.x1);
      const dy = Math.abs(r.y0 - s.box.y0);
      if (dx <= reach && dy <= reach && dx + dy < bestDistance) [best, bestDistance] = [i, dx + dy];
    });
    if (best < 0) return s;
    const [rule] = free.splice(best, 1);
    return { ...s, box: union(s.box, rule) };
  });
  for (const r of free) out.push({ latex: RULE, box: r, confidence: 1 });
  return out;
}
