import { labelledArrow } from './arrows.js';
import { glyphOf, height, overlap, unionBox, width, type Element, type Glyph, type ParseRow } from './element.js';

/** Accent marks by the labels front ends give them (control words, and the ASCII/Unicode spacing forms). */
const ACCENTS: Record<string, string> = {
  '\\hat': '\\hat',
  '^': '\\hat',
  ˆ: '\\hat',
  '\\check': '\\check',
  ˇ: '\\check',
  '\\tilde': '\\tilde',
  '~': '\\tilde',
  '˜': '\\tilde',
  '\\bar': '\\bar',
  '¯': '\\bar',
  '\\vec': '\\vec',
  '\\dot': '\\dot',
  '˙': '\\dot',
  '\\ddot': '\\ddot',
  '¨': '\\ddot',
  '\\breve': '\\breve',
  '\\mathring': '\\mathring',
  '˚': '\\mathring',
  '\\acute': '\\acute',
  '\\grave': '\\grave',
  '\\widehat': '\\widehat',
  '\\widetilde': '\\widetilde',
};
/** Whether a glyph's label is an accent mark (it sits over a symbol, never on a baseline of its own). */
export const isAccentMark = (latex: string): boolean => latex in ACCENTS;

/** Marks that stretch over several elements, by the command they become there (`\widehat{ABC}`, `\overrightarrow{AB}`). */
const WIDE: Record<string, string> = {
  '\\hat': '\\widehat',
  '\\widehat': '\\widehat',
  '\\tilde': '\\widetilde',
  '\\widetilde': '\\widetilde',
  '\\vec': '\\overrightarrow',
  '\\rightarrow': '\\overrightarrow',
  '\\longrightarrow': '\\overrightarrow',
  '\\leftarrow': '\\overleftarrow',
  '\\longleftarrow': '\\overleftarrow',
  '\\leftrightarrow': '\\overleftrightarrow',
  '\\longleftrightarrow': '\\overleftrightarrow',
};
const DOTS = new Set(['.', '\\cdot']);
/** Dot accents by their number of dots. */
const DOT_ACCENTS = ['', '\\dot', '\\ddot', '\\dddot', '\\ddddot'];
const ARROWS = new Set(['\\rightarrow', '\\longrightarrow']);
/** A dot that may pair into `\ddot`: a free dot, or one a front end already placed as `\dot`. */
const isDot = (element: Element) => DOTS.has(glyphOf(element)?.latex ?? '') || glyphOf(element, '\\dot') !== null;

/**
 * Puts accents on what they mark: an accent mark, a dot (or two to four side by side: `\ddot`,
 * `\dddot`, `\ddddot`) or a
 * small right arrow (`\vec`) that sits just above one element and within its width; a hat, tilde
 * or arrow spanning several elements is the wide form over all of them. A dot or an arrow that is
 * not above a nearby symbol stays what it was.
 */
export function groupAccents(elements: Element[], parseRow: ParseRow): Element[] {
  let pool = elements;
  for (const mark of elements) {
    const glyph = glyphOf(mark);
    if (!glyph || !pool.includes(mark)) continue;
    const named = ACCENTS[glyph.latex];
    const ring = glyph.latex === '\\circ';
    if (!named && !ring && !DOTS.has(glyph.latex) && !ARROWS.has(glyph.latex) && !WIDE[glyph.latex]) continue;
    if (labelledArrow(mark, pool)) continue;
    const spanned = WIDE[glyph.latex] ? spannedElements(mark, pool) : [];
    if (spanned.length > 1) {
      pool = pool.filter((element) => element !== mark && !spanned.includes(element));
      pool.push(accentElement(WIDE[glyph.latex], [glyph], spanned, mark, parseRow));
      continue;
    }
    // Two, three or four dots side by side over one element: `\ddot`, amsmath's `\dddot` and `\ddddot`.
    const dots = dotRun(mark, pool);
    const over = dots.length > 1 ? { ...mark, box: unionBox(dots.map((dot) => dot.box)) } : mark;
    const target = dots.length < DOT_ACCENTS.length ? markedElement(over, pool) : null;
    if (!target || (ring ? !ringAccent(mark, target) : !named && !fitsAsAccent(mark, target))) continue;
    const marks: Glyph[] = dots.map((dot) => glyphOf(dot) as Glyph);
    const command =
      dots.length > 1
        ? DOT_ACCENTS[dots.length]!
        : ring
          ? '\\mathring'
          : (named ?? (glyph.latex === '\\longrightarrow' ? '\\overrightarrow' : ARROWS.has(glyph.latex) ? '\\vec' : (WIDE[glyph.latex] ?? '\\dot')));
    pool = pool.filter((element) => !dots.includes(element) && element !== target);
    pool.push(accentElement(wideOverOne(command, mark, target), marks, [target], mark, parseRow));
  }
  return pool;
}

/** The accent over `targets`, with their metrics: an accent does not move the baseline. */
function accentElement(command: string, marks: Glyph[], targets: Element[], mark: Element, parseRow: ParseRow): Element {
  const body = parseRow(targets);
  const under = unionBox(targets.map((target) => target.box));
  const box = { ...under, y0: Math.min(mark.box.y0, under.y0) };
  const node = { kind: 'accent' as const, command, marks, body: body.nodes };
  const em = body.em ?? targets[0].em;
  const baseline = body.baseline;
  return { node, box, em, baselineFor: baseline === null ? targets[0].baselineFor : () => baseline };
}

/**
 * Width in em from which a hat or tilde over one symbol is the wide accent's smallest size: `\hat`
 * and `\tilde` are 0.25–0.35 em of ink, `\widehat{R}` and `\widetilde{a}` 0.55 em (Computer
 * Modern, Palatino, Times), whatever the letter under them.
 */
const WIDE_ACCENT_EM = 0.45;

/** `\widehat`/`\widetilde` for a hat or tilde over one symbol that is as wide as the wide accent's smallest size. */
function wideOverOne(command: string, mark: Element, target: Element): string {
  if (command !== '\\hat' && command !== '\\tilde') return command;
  return target.em !== null && width(mark.box) >= WIDE_ACCENT_EM * target.em ? WIDE[command]! : command;
}

/** The share of an element's width a wide mark covers when it stretches over it. */
const SPANNED_SHARE = 0.4;

/**
 * The elements a wide mark stretches over: mostly under its span (TeX picks the widest size that
 * fits, so the mark can be narrower than what it covers: `\widetilde{ab}`'s tilde leaves half the b
 * out), starting just below it, and together about as wide as the mark (a small hat over one letter
 * of a word spans only that one). The mark clears the nearest of them, and a short letter beside a
 * tall one stands lower by less than half the tall one's height.
 */
function spannedElements(mark: Element, pool: Element[]): Element[] {
  const gapOf = (element: Element) => element.box.y0 - mark.box.y1;
  const beneath = pool.filter((element) => {
    if (element === mark) return false;
    const covered = overlap(element.box.x0, element.box.x1, mark.box.x0, mark.box.x1) >= SPANNED_SHARE * width(element.box);
    return covered && gapOf(element) >= -0.2 * height(mark.box);
  });
  const near = beneath.filter((element) => gapOf(element) < 0.5 * height(element.box));
  if (near.length === 0) return [];
  const tallest = Math.max(...near.map((element) => height(element.box)));
  const clearance = Math.min(...near.map(gapOf));
  const under = beneath.filter((element) => gapOf(element) < clearance + 0.5 * tallest);
  if (under.length < 2) return under;
  return width(unionBox(under.map((element) => element.box))) >= 0.6 * width(mark.box) ? under : [];
}

/**
 * A dot with the dots beside it at its height, each at most two dots' widths from the next, left
 * to right; an arrow or any other mark alone.
 */
function dotRun(mark: Element, pool: Element[]): Element[] {
  if (!isDot(mark)) return [mark];
  const level = (element: Element) => Math.abs((element.box.y0 + element.box.y1) / 2 - (mark.box.y0 + mark.box.y1) / 2) < height(mark.box);
  const run = [mark];
  for (let grew = true; grew;) {
    grew = false;
    for (const other of pool) {
      if (run.includes(other) || !isDot(other) || !level(other)) continue;
      if (!run.some((dot) => Math.max(other.box.x0 - dot.box.x1, dot.box.x0 - other.box.x1) < 2 * width(mark.box))) continue;
      run.push(other);
      grew = true;
    }
  }
  return run.sort((a, b) => a.box.x0 - b.box.x0);
}

/**
 * The element right below a mark: sharing most of the narrower one's width (accents on italic or
 * narrow letters sit off centre) and at most about half its own height away.
 */
function markedElement(mark: Element, pool: Element[]): Element | null {
  const shares = (element: Element) => overlap(element.box.x0, element.box.x1, mark.box.x0, mark.box.x1) > 0.4 * Math.min(width(element.box), width(mark.box));
  const below = pool
    .filter((element) => element !== mark && shares(element) && element.box.y0 >= mark.box.y0 + 0.5 * height(mark.box))
    .sort((a, b) => a.box.y0 - b.box.y0)[0];
  if (!below) return null;
  const gap = below.box.y0 - mark.box.y1;
  return gap < 0.5 * height(below.box) ? below : null;
}

/** A dot or an arrow is an accent only when small next to what it marks and close above it. */
function fitsAsAccent(mark: Element, target: Element): boolean {
  const gap = target.box.y0 - mark.box.y1;
  return width(mark.box) < 1.6 * width(target.box) && height(mark.box) < 0.5 * height(target.box) && gap < 0.35 * height(target.box);
}

/**
 * A `\\circ` read over a symbol is `\\mathring`'s ring when it is as small and as close as an accent:
 * the ring is about 0.19 em wide and clears the letter by about 0.07 em, while `\\overset{\\circ}{A}`'s
 * script-size circle is about 0.31 em wide and 0.19 em clear (layout/stacks.ts takes that one).
 */
function ringAccent(mark: Element, target: Element): boolean {
  if (target.em === null) return false;
  return width(mark.box) < RING_WIDTH_EM * target.em && target.box.y0 - mark.box.y1 < RING_GAP_EM * target.em;
}
const RING_WIDTH_EM = 0.25;
const RING_GAP_EM = 0.13;

/** Negated relations with a command of their own; any other `\not X` stays `\not X`. */
const NEGATED: Record<string, string> = { '=': '\\neq', '\\in': '\\notin', '\\equiv': '\\not\\equiv', '\\exists': '\\nexists' };

/** Merges a `\not` slash with the symbol it is struck through (`\not` + `=` → `\neq`). */
export function groupNegations(elements: Element[]): Element[] {
  let pool = elements;
  for (const slash of elements.filter((element) => glyphOf(element, '\\not'))) {
    const struck = pool
      .filter((element) => element !== slash && glyphOf(element))
      .map((element) => ({ element, shared: overlap(element.box.x0, element.box.x1, slash.box.x0, slash.box.x1) }))
      .filter(({ shared }) => shared > 0.5 * width(slash.box))
      .sort((a, b) => b.shared - a.shared)[0]?.element;
    if (!struck) continue;
    const glyph = glyphOf(struck) as Glyph;
    const latex = NEGATED[glyph.latex] ?? (/^[a-zA-Z]/u.test(glyph.latex) ? `\\not ${glyph.latex}` : `\\not${glyph.latex}`);
    const node = { kind: 'merged' as const, latex, glyphs: [glyphOf(slash) as Glyph, glyph] };
    pool = pool.filter((element) => element !== slash && element !== struck);
    pool.push({ node, box: unionBox([slash.box, struck.box]), em: struck.em, baselineFor: struck.baselineFor });
  }
  return pool;
}
