import type { MathRead, PageLine } from '../model.js';
import { EQUATION_NUMBER, isEquationNumber } from '../equation-number.js';
import { enclosing } from '../geometry.js';
import { upperMedian } from './line-measures.js';

/**
 * The rows of one multi-line display on a page image. The maths pass reads each row of ink apart
 * (an `align` of three rows is three maths lines), so rows set closer than displays stand apart
 * are joined back into one display: `aligned`, with `&` before each row's first relation, when
 * every row has a main-size relation and those line up (the continuation rows of a derivation
 * start with theirs: `&= …`; a row opening with a binary operator at or right of the column
 * carries on the row above: `&+ …`); else `gathered`, each row centred on its own (gather,
 * multline). Rows that close are not always one display: a derivation (a row, then rows opening
 * with a relation where its relation stands) inside rows that do not line up with it is a display
 * of its own, and the rows before and after it are others. A rule (a footnote's, a `\hrule`) is
 * no row.
 * A display numbered on one row keeps that number, one numbered on several keeps each row's
 * (page/render/mmd.ts `tagged`); a line that is only an equation number, beside or just under a
 * row, is that row's number.
 */

const RELATIONS = new Set(
  '= < > \\leq \\geq \\neq \\equiv \\approx \\sim \\simeq \\cong \\propto \\to \\rightarrow \\Rightarrow \\Leftrightarrow \\longrightarrow \\Longrightarrow \\mapsto \\leftarrow \\Leftarrow \\leftrightarrow \\longleftarrow \\Longleftarrow \\longleftrightarrow \\Longleftrightarrow \\longmapsto \\subset \\subseteq \\supset \\supseteq \\in \\ll \\gg \\prec \\succ \\le \\ge \\ne'.split(
    ' ',
  ),
);

/** Whether a LaTeX token is a relation a row may align at. */
export const isRelation = (token: string): boolean => RELATIONS.has(token);

/** White between two rows of one display, at most, in heights of the page's text lines (a gather's rows stood 0.8 apart, two displays in a row 1.25, at 150 dpi). */
export const ROW_GAP = 1;
/** Rows whose relations lie this close, in text-line heights, line up. */
export const ALIGN_SLACK = 0.5;

type Upright = (l: PageLine) => PageLine['box'];

/** The height of the page's text lines (the median), or half a maths row's where it has none. */
export function textLineHeight(lines: PageLine[], upright: Upright): number {
  const heights = (kind: 'math' | 'text') => lines.filter((l) => (l.kind === 'math') === (kind === 'math')).map((l) => upright(l).height);
  return upperMedian(heights('text')) || upperMedian(heights('math')) / 2 || 1;
}

/**
 * On an image of maths alone (no line of text, as /v3/text is sent a formula), rows stand at most
 * this many times the taller row's height apart to be one display. With no text to measure display
 * skips by (the page's line height is then half a maths row, too short for an `align`'s rows), a
 * row's own height is the measure: an `align`'s rows stand about 0.7 of a row apart at 150 dpi,
 * and a short continuation row (`&= c`, all x-height) up to 1.2 of its taller neighbour.
 */
export const MATHS_ONLY_ROW_GAP = 1.25;

/** The page's lines with the rows of each multi-line display joined into one maths line. */
export function joinDisplayRows(lines: PageLine[], upright: Upright, lineHeight: number): PageLine[] {
  const mathsOnly = lines.length > 1 && lines.every((l) => l.kind === 'math');
  const out: PageLine[] = [];
  let run: PageLine[] = [];
  const flush = () => {
    for (const display of displaysOf(run, upright, lineHeight)) out.push(display.length > 1 ? joined(display, upright, lineHeight) : display[0]!);
    run = [];
  };
  const isRow = (l: PageLine) => isDisplayRow(l) && !isRule(l, upright, lineHeight);
  for (const read of lines) {
    const line = isDisplayRow(read) ? withLoweredNumber(withMarksOnBases(read)) : read;
    // A row that was nothing but a mark is no row.
    if (line.math?.latex === '' && read.math?.latex !== '') continue;
    const previous = run.at(-1);
    const tag = numberOnly(line);
    if (tag && previous && !previous.math!.tag && (sameDisplay(previous, line, upright, lineHeight) || level(previous, line, upright))) {
      run[run.length - 1] = { ...previous, math: { ...previous.math!, tag } };
      continue;
    }
    if (isRow(line) && previous && (sameDisplay(previous, line, upright, lineHeight) || (mathsOnly && closeRows(previous, line, upright)))) run.push(line);
    else {
      flush();
      if (isRow(line)) run.push(line);
      else out.push(line);
    }
  }
  flush();
  return out;
}

/** Accents LaTeX sets over a base (their argument). */
const ACCENT = String.raw`\\(?:vec|hat|bar|tilde|dot|ddot|dddot|check|breve|acute|grave|mathring|widehat|widetilde|overline|underline|overrightarrow|overleftarrow|overbrace|underbrace)(?![A-Za-z])`;
/** Where an argument cannot start: a row's or a cell's end, a block's end, a group's end, the end. */
const NO_ARGUMENT = String.raw`(?=\\\\|\\end(?![A-Za-z])|&|\}|$)`;
/** An accent or a script sign with nothing to stand on, and a block's empty last row. */
const BARE_MARK = new RegExp(`(?:${ACCENT}|[_^])\\s*${NO_ARGUMENT}`, 'gu');
const EMPTY_LAST_ROW = /\\\\\s*(?=\\end\{)/gu;

/**
 * A display row whose read set a mark over nothing (a stray accent read as a row of its own:
 * `…\\ \vec\end{gathered}`, a script sign before a row's end) without it: as written, the accent takes
 * `\end` for its argument and the display is no longer LaTeX (`\vec{\end}gathered`).
 */
function withMarksOnBases(line: PageLine): PageLine {
  let latex = line.math!.latex;
  for (let before = ''; before !== latex;) [before, latex] = [latex, latex.replace(BARE_MARK, '').replace(EMPTY_LAST_ROW, '')];
  return latex === line.math!.latex ? line : { ...line, math: { ...line.math!, latex } };
}

/** A read whose last row is only an equation number: `\begin{gathered}X\\(3)\end{gathered}`. */
const LOWERED_NUMBER = /^\\begin\{gathered\}([\s\S]*?)\s*\\\\\s*(\([^()]*\))\s*\\end\{gathered\}$/u;

/**
 * A row read with the equation number amsmath lowers under a row too long to hold it as a row of its
 * own (`\begin{gathered}\{ab…\}.\\(3)\end{gathered}`): the number is the row's tag, not a row.
 */
function withLoweredNumber(line: PageLine): PageLine {
  const found = LOWERED_NUMBER.exec(line.math!.latex.trim());
  if (!found || line.math!.tag || !isEquationNumber(found[2]!)) return line;
  const rows = found[1]!;
  // A row that ends with a number of its own: the number under it is another row's, whose formula the read lost.
  const own = /\([^()]*\)$/u.exec(rows.trim());
  if (own && isEquationNumber(own[0])) return line;
  // The rows left: one stands on its own, more stay gathered (a `\\` inside a nested environment is no row of this one).
  const nested = rows.replace(/\\begin\{(\w+\*?)\}[\s\S]*?\\end\{\1\}/gu, '');
  const latex = nested.includes('\\\\') ? `\\begin{gathered}${rows}\\end{gathered}` : rows;
  return { ...line, math: { ...line.math!, latex, tag: found[2]!.replace(/\s+/g, '').slice(1, -1).replace(/′/gu, "'") } };
}

/** A line that is only an equation number (amsmath lowers one under a row too long to hold it): its text without the parentheses. */
function numberOnly(l: PageLine): string | undefined {
  const printed = (l.kind === 'math' ? (l.math?.latex ?? '') : l.text).replace(/\s+/g, '');
  return EQUATION_NUMBER.test(printed) ? printed.slice(1, -1).replace(/′/gu, "'") : undefined;
}

/** Whether two lines share a row: their middles within each other's height. */
function level(a: PageLine, b: PageLine, upright: Upright): boolean {
  const [p, q] = [upright(a), upright(b)];
  return Math.abs(p.y + p.height / 2 - (q.y + q.height / 2)) <= Math.max(p.height, q.height) / 2;
}

const isDisplayRow = (l: PageLine): boolean => l.kind === 'math' && l.math !== undefined && !l.chemistry && !l.math.handwritten && l.math.latex !== '';

/** A rule's ink is this much flatter than the page's text lines (the pass crops a row to its ink; a rule is a pixel or two). */
const RULE_HEIGHT = 0.25;

/** A horizontal rule the maths pass read as a line (`-`): a footnote's rule, a `\hrule` under a display. */
function isRule(l: PageLine, upright: Upright, lineHeight: number): boolean {
  return /^(?:-|\\_)$/u.test(l.math!.latex) && upright(l).height < RULE_HEIGHT * lineHeight;
}

/** Whether `below` is the next row of `above`'s display: close under it (a multline's rows need not overlap: its first starts at the left margin, its last ends at the right). */
function sameDisplay(above: PageLine, below: PageLine, upright: Upright, lineHeight: number): boolean {
  const [a, b] = [upright(above), upright(below)];
  const gap = b.y - (a.y + a.height);
  return gap >= -0.1 * lineHeight && gap <= ROW_GAP * lineHeight;
}

/** Whether `below` stands within MATHS_ONLY_ROW_GAP of the taller row's height under `above`. */
function closeRows(above: PageLine, below: PageLine, upright: Upright): boolean {
  const [a, b] = [upright(above), upright(below)];
  const gap = b.y - (a.y + a.height);
  return gap >= 0 && gap <= MATHS_ONLY_ROW_GAP * Math.max(a.height, b.height);
}

function joined(rows: PageLine[], upright: Upright, lineHeight: number): PageLine {
  const maths = rows.map((r) => r.math!);
  const cells = alignedCells(rows, upright, lineHeight);
  const body = cells
    ? `\\begin{aligned}${cells.map(([left, right]) => `${left}&${right}`).join('\\\\')}\\end{aligned}`
    : `\\begin{gathered}${maths.map((m) => m.latex).join('\\\\')}\\end{gathered}`;
  const tags = maths.flatMap((m) => (m.tag ? [m.tag] : []));
  const box = enclosing(rows.map((r) => r.box));
  const math: MathRead = {
    latex: body,
    confidence: maths.reduce((p, m) => p * m.confidence, 1),
    confidenceRate: Math.min(...maths.map((m) => m.confidenceRate)),
    symbolCount: maths.reduce((n, m) => n + m.symbolCount, 0),
    ...(maths.every((m) => m.calibrated)
      ? { calibrated: { confidence: maths.reduce((p, m) => p * m.calibrated!.confidence, 1), rate: Math.min(...maths.map((m) => m.calibrated!.rate)) } }
      : {}),
    ...(tags.length === 1 ? { tag: tags[0] } : tags.length > 1 ? { rowTags: maths.map((m) => m.tag) } : {}),
  };
  // The chance that every row is right: each row's reported confidence (calibrated where it was).
  return { text: rows.map((r) => r.text).join(' '), confidence: rows.reduce((p, r) => p * r.confidence, 1), box, kind: 'math', math };
}

/** Binary operators a continuation row opens with (`&+ c`): the born-digital reader's CONTINUATIONS (worker/engine/math/layout/display-rows.ts). */
const OPENING_OPERATOR = /^(?:[+-]|\\(?:pm|mp|times|cdot)(?![A-Za-z]))/u;

/** Where a row's first relation stands on the page, if it has one. */
function relationAt(row: PageLine, upright: Upright): number | undefined {
  const x = row.math!.relationX;
  return x === undefined || relationSplit(row.math!.latex) === undefined ? undefined : upright(row).x + x;
}

/** Whether a row opens with a relation (`= …`, `\\le …`): the next step of a derivation. */
const opensWithRelation = (row: PageLine): boolean => relationSplit(row.math!.latex)?.[0].trim() === '';

/**
 * An operator opening a carried-on row stands at most this far (text-line heights, about the
 * born-digital reader's 0.12 em) left of the column: a multline's last row (`+ x^{10} …`, flush
 * right) may start a little left of the first row's relation.
 */
const CONTINUATION_SLACK = 0.1;

/** Whether a row without a relation opens with a binary operator at or right of `x`: the row above carried on (`&+ c`). */
function carriesOn(row: PageLine, x: number, upright: Upright, lineHeight: number): boolean {
  return relationSplit(row.math!.latex) === undefined && OPENING_OPERATOR.test(row.math!.latex) && upright(row).x >= x - CONTINUATION_SLACK * lineHeight;
}

/**
 * The rows' cells either side of the alignment point, when they line up: every row has a
 * relation and those stand within ALIGN_SLACK of each other, except rows that carry on the row
 * above with a binary operator (their whole LaTeX is the right cell); undefined when they do not.
 */
function alignedCells(rows: PageLine[], upright: Upright, lineHeight: number): [string, string][] | undefined {
  const at = rows.map((r) => relationAt(r, upright));
  const points = at.filter((x): x is number => x !== undefined);
  if (points.length === 0 || at[0] === undefined || Math.max(...points) - Math.min(...points) > ALIGN_SLACK * lineHeight) return undefined;
  const x = Math.min(...points);
  if (!rows.every((r, i) => at[i] !== undefined || carriesOn(r, x, upright, lineHeight))) return undefined;
  return rows.map((r, i) => (at[i] === undefined ? ['', r.math!.latex] : relationSplit(r.math!.latex)!));
}

/**
 * The displays a run of close rows holds. Rows that line up are one (aligned); so are rows that
 * line up with none of the others (gathered: a gather's rows are centred, a multline's stand at
 * either margin). A derivation among rows that do not line up with it (a row, then at least one
 * row opening with a relation where its relation stands, and any rows that carry on) is a display
 * of its own: close rows above or below it (another display, a line of words read as maths) are
 * not its rows, unless they carry it on.
 */
function displaysOf(run: PageLine[], upright: Upright, lineHeight: number): PageLine[][] {
  if (run.length === 0) return [];
  if (run.length === 1 || alignedCells(run, upright, lineHeight)) return [run];
  const displays: PageLine[][] = [];
  let rest = 0;
  for (let i = 0; i < run.length; i++) {
    const end = derivationEnd(run, i, upright, lineHeight);
    if (end === i + 1) continue;
    if (i > rest) displays.push(run.slice(rest, i));
    displays.push(run.slice(i, end));
    rest = end;
    i = end - 1;
  }
  if (rest < run.length) displays.push(run.slice(rest));
  // A row opening with a relation or a binary operator carries on the row above, wherever it
  // stands (`\\Rightarrow B^{2}x &= …` hangs left of the column): no display starts with it.
  return displays.reduce<PageLine[][]>((kept, display) => {
    const first = display[0]!.math!.latex;
    if (kept.length && (opensWithRelation(display[0]!) || OPENING_OPERATOR.test(first))) kept[kept.length - 1]!.push(...display);
    else kept.push(display);
    return kept;
  }, []);
}

/** The end of the derivation starting at row `start` (rows whose relations stand where its own does, one at least opening with it); start + 1 when none. */
function derivationEnd(run: PageLine[], start: number, upright: Upright, lineHeight: number): number {
  const x = relationAt(run[start]!, upright);
  if (x === undefined) return start + 1;
  let end = start + 1;
  let steps = 0;
  for (; end < run.length; end++) {
    const row = run[end]!;
    const at = relationAt(row, upright);
    if (at !== undefined && Math.abs(at - x) <= ALIGN_SLACK * lineHeight) steps += opensWithRelation(row) ? 1 : 0;
    else if (!carriesOn(row, x, upright, lineHeight)) break;
  }
  return steps > 0 ? end : start + 1;
}

/** A row's LaTeX cut before its first relation outside braces: [left, relation and right]; undefined without one. */
export function relationSplit(latex: string): [string, string] | undefined {
  let depth = 0;
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i]!;
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '\\') {
      const word = /^\\(?:[A-Za-z]+|.)/u.exec(latex.slice(i))?.[0] ?? '\\';
      // A row read as a block of rows of its own (`\begin{gathered}…\end{gathered}`) has no cell to cut inside it.
      if (word === '\\begin') depth++;
      else if (word === '\\end') depth--;
      else if (depth === 0 && RELATIONS.has(word)) return [latex.slice(0, i), latex.slice(i)];
      i += word.length - 1;
    } else if (depth === 0 && RELATIONS.has(c)) return [latex.slice(0, i), latex.slice(i)];
  }
  return undefined;
}
