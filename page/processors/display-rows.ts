import type { MathRead, PageLine } from '../model.js';
import { EQUATION_NUMBER } from '../equation-number.js';
import { upperMedian } from './line-measures.js';

/**
 * The rows of one multi-line display on a page image. The maths pass reads each row of ink apart
 * (an `align` of three rows is three maths lines), so rows set closer than displays stand apart
 * are joined back into one display: `aligned`, with `&` before each row's first relation, when
 * every row has a main-size relation and those line up (the continuation rows of a derivation
 * start with theirs: `&= …`); else `gathered`, each row centred on its own (gather, multline).
 * A display numbered on one row keeps that number, one numbered on several keeps each row's
 * (page/render/mmd.ts `tagged`); a line that is only an equation number, beside or just under a
 * row, is that row's number.
 */

const RELATIONS = new Set(
  '= < > \\leq \\geq \\neq \\equiv \\approx \\sim \\simeq \\cong \\propto \\to \\rightarrow \\Rightarrow \\Leftrightarrow \\longrightarrow \\Longrightarrow \\mapsto \\subset \\subseteq \\supset \\supseteq \\in \\ll \\gg \\prec \\succ \\le \\ge \\ne'.split(
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

/** The page's lines with the rows of each multi-line display joined into one maths line. */
export function joinDisplayRows(lines: PageLine[], upright: Upright, lineHeight: number): PageLine[] {
  const out: PageLine[] = [];
  let run: PageLine[] = [];
  const flush = () => {
    out.push(...(run.length > 1 ? [joined(run, upright, lineHeight)] : run));
    run = [];
  };
  for (const line of lines) {
    const previous = run.at(-1);
    const tag = numberOnly(line);
    if (tag && previous && !previous.math!.tag && (sameDisplay(previous, line, upright, lineHeight) || level(previous, line, upright))) {
      run[run.length - 1] = { ...previous, math: { ...previous.math!, tag } };
      continue;
    }
    if (isRow(line) && previous && sameDisplay(previous, line, upright, lineHeight)) run.push(line);
    else {
      flush();
      if (isRow(line)) run.push(line);
      else out.push(line);
    }
  }
  flush();
  return out;
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

const isRow = (l: PageLine): boolean => l.kind === 'math' && l.math !== undefined && !l.chemistry && !l.math.handwritten && l.math.latex !== '';

/** Whether `below` is the next row of `above`'s display: close under it (a multline's rows need not overlap: its first starts at the left margin, its last ends at the right). */
function sameDisplay(above: PageLine, below: PageLine, upright: Upright, lineHeight: number): boolean {
  const [a, b] = [upright(above), upright(below)];
  const gap = b.y - (a.y + a.height);
  return gap >= -0.1 * lineHeight && gap <= ROW_GAP * lineHeight;
}

function joined(rows: PageLine[], upright: Upright, lineHeight: number): PageLine {
  const maths = rows.map((r) => r.math!);
  const at = rows.map((r, i) => (maths[i]!.relationX === undefined ? undefined : upright(r).x + maths[i]!.relationX!));
  const split = maths.map((m) => relationSplit(m.latex));
  const aligned =
    at.every((x) => x !== undefined) &&
    split.every((s) => s !== undefined) &&
    Math.max(...(at as number[])) - Math.min(...(at as number[])) <= ALIGN_SLACK * lineHeight;
  const body = aligned
    ? `\\begin{aligned}${split.map(([left, right]) => `${left}&${right}`).join('\\\\')}\\end{aligned}`
    : `\\begin{gathered}${maths.map((m) => m.latex).join('\\\\')}\\end{gathered}`;
  const tags = maths.flatMap((m) => (m.tag ? [m.tag] : []));
  const boxes = rows.map((r) => r.box);
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const box = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
  const math: MathRead = {
    latex: body,
    confidence: maths.reduce((p, m) => p * m.confidence, 1),
    confidenceRate: Math.min(...maths.map((m) => m.confidenceRate)),
    symbolCount: maths.reduce((n, m) => n + m.symbolCount, 0),
    ...(maths.every((m) => m.calibrated)
      ? { calibrated: { confidence: Math.min(...maths.map((m) => m.calibrated!.confidence)), rate: Math.min(...maths.map((m) => m.calibrated!.rate)) } }
      : {}),
    ...(tags.length === 1 ? { tag: tags[0] } : tags.length > 1 ? { rowTags: maths.map((m) => m.tag) } : {}),
  };
  return { text: rows.map((r) => r.text).join(' '), confidence: math.confidence, box, kind: 'math', math };
}

/** A row's LaTeX cut before its first relation outside braces: [left, relation and right]; undefined without one. */
export function relationSplit(latex: string): [string, string] | undefined {
  let depth = 0;
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i]!;
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && c === '\\') {
      const word = /^\\(?:[A-Za-z]+|.)/u.exec(latex.slice(i))?.[0] ?? '\\';
      if (RELATIONS.has(word)) return [latex.slice(0, i), latex.slice(i)];
      i += word.length - 1;
    } else if (depth === 0 && RELATIONS.has(c)) return [latex.slice(0, i), latex.slice(i)];
  }
  return undefined;
}
