import type { Box } from '../../engine/math/types.js';
import { BULLETS, glyphToLatex, isMathChar, joinLatex } from '../../engine/math/unicode-latex.js';
import type { Glyph, TextLine } from './text-layer.js';

/** One line's glyphs → MMD: plain words, inline maths in delimiters, and links. */

/**
 * Reads the maths inside a box of the page with the 2-D parser; undefined when the page has no
 * glyph data (OCR) or the parser found nothing, and the glyph-by-glyph map is used instead.
 */
export type RegionLatex = (box: Box) => string | undefined;

export interface LinkArea {
  x0: number;
  top: number;
  x1: number;
  bottom: number;
  url: string;
}

type Role = 'base' | 'sup' | 'sub';

interface Token {
  glyphs: Glyph[];
  text: string;
  math: boolean;
  /** A single letter, a number or an ASCII operator: maths when it sits next to maths. */
  mathish: boolean;
  operator: boolean;
  href?: string;
  /** Footnote or affiliation marks raised after a word (`Lienhard¹,†`): maths only as `{}^{…}`. */
  marks?: boolean;
}

const ASCII_OPERATOR = /^[=+\-<>/*|]$/;
const MATHISH = /^([A-Za-z]|\d+([.,]\d+)?|[=+\-<>/*|()])[.,;:]?$/;
/** Upright operator names TeX sets in the text font inside maths: not words of prose. */
export const FUNCTION_NAME =
  /^(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|arcsin|arccos|arctan|log|ln|lg|exp|lim|liminf|limsup|max|min|sup|inf|det|arg|gcd|deg|dim|ker|hom|Pr|mod)$/;

/** A token of operator names and brackets (`ln`, `sin((sin`): maths set in the text font. */
const isFunctionRun = (text: string) => {
  const rest = text.replace(/[A-Za-z]+/g, (word) => (FUNCTION_NAME.test(word) ? '' : word));
  return rest !== text && /^[()[\],.;:]*$/.test(rest);
};

const TRAILING_PUNCT = /^[.,;:]$/;

/** A word of prose: two letters or more in a text font, with quotes or punctuation at its ends. */
const PROSE_WORD = /^[\p{P}]*\p{L}[\p{L}\p{M}'’-]*\p{L}[\p{P}]*$/u;
/** What a footnote or affiliation mark is made of: digits, letters, stars, daggers, section signs, commas. */
const MARK = /^[\p{L}\d*∗⋆†‡§¶#,]$/u;

const isMark = (g: Glyph, line: TextLine) => role(g, line) === 'sup' && MARK.test(g.ch);

/** A word of prose (not an operator name) in a text font. */
function isProseWord(glyphs: Glyph[]): boolean {
  const text = glyphs.map((g) => g.ch).join('');
  return !glyphs.some((g) => g.mathFont) && PROSE_WORD.test(text) && !FUNCTION_NAME.test(text);
}

/**
 * A word of prose with footnote or affiliation marks raised after it (`Lienhard¹,†,*`,
 * `multiset¹`, `“beauty”.²`, then perhaps a comma) or before it (a footnote's `⁶Needless`): the
 * glyphs split into the word and the marks, or undefined. A subscript after a word is chemistry
 * (`CO₂`) and stays maths.
 */
function splitMarks(glyphs: Glyph[], line: TextLine): { word: Glyph[]; marks: Glyph[]; marksFirst: boolean } | undefined {
  const lead = glyphs.findIndex((g) => !isMark(g, line));
  if (lead > 0 && role(glyphs[lead]!, line) === 'base' && glyphs.slice(lead).every((g) => role(g, line) === 'base') && isProseWord(glyphs.slice(lead)))
    return { word: glyphs.slice(lead), marks: glyphs.slice(0, lead), marksFirst: true };
  const start = glyphs.findIndex((g) => role(g, line) !== 'base');
  if (start < 2 || !isProseWord(glyphs.slice(0, start))) return undefined;
  const last = glyphs.at(-1)!;
  const end = TRAILING_PUNCT.test(last.ch) && role(last, line) === 'base' ? glyphs.length - 1 : glyphs.length;
  if (end === start || !glyphs.slice(start, end).every((g) => isMark(g, line))) return undefined;
  return { word: glyphs.slice(0, start), marks: glyphs.slice(start), marksFirst: false };
}

function role(g: Glyph, line: TextLine): Role {
  if (g.size >= 0.9 * line.size) return 'base';
  if (g.base < line.base - 0.15 * line.size) return 'sup';
  if (g.base > line.base + 0.1 * line.size) return 'sub';
  return 'base';
}

function isMathGlyph(g: Glyph, line: TextLine): boolean {
  if (BULLETS.has(g.ch) && g.ch !== '*' && g.ch !== '-') return false;
  // TeX draws leader dots and some punctuation from maths fonts: never a reason for maths.
  if (/^[.,;:!?]$/.test(g.ch)) return false;
  return (g.mathFont && /\S/.test(g.ch)) || isMathChar(g.ch) || role(g, line) !== 'base';
}

function tokenize(line: TextLine, links: LinkArea[]): Token[] {
  const tokens: Token[] = [];
  let glyphs: Glyph[] = [];
  const push = () => {
    if (!glyphs.length) return;
    const split = splitMarks(glyphs, line);
    if (split) {
      const token = (part: Glyph[], marks: boolean): Token => ({
        glyphs: part,
        text: part.map((g) => g.ch).join(''),
        math: marks,
        mathish: false,
        operator: false,
        ...(marks ? { marks } : {}),
        href: hrefOf(part, links),
      });
      const [word, marks] = [token(split.word, false), token(split.marks, true)];
      tokens.push(...(split.marksFirst ? [marks, word] : [word, marks]));
      glyphs = [];
      return;
    }
    const text = glyphs.map((g) => g.ch).join('');
    const math = glyphs.some((g) => isMathGlyph(g, line));
    const operator =
      glyphs.length === 1 &&
      (ASCII_OPERATOR.test(text) ||
        (math &&
          /^\\(leq|geq|neq|approx|equiv|sim|in|notin|subset|subseteq|supset|cup|cap|pm|mp|times|cdot|div|sum|prod|int|rightarrow|leftarrow|Rightarrow|Leftrightarrow|propto|to)$/.test(
            glyphToLatex(text),
          )));
    tokens.push({ glyphs, text, math, mathish: MATHISH.test(text) || isFunctionRun(text), operator, href: hrefOf(glyphs, links) });
    glyphs = [];
  };
  for (const g of line.glyphs) {
    if (g.ch === ' ') push();
    else glyphs.push(g);
  }
  push();
  return tokens;
}

function hrefOf(glyphs: Glyph[], links: LinkArea[]): string | undefined {
  for (const link of links) {
    const inside = glyphs.filter((g) => {
      const cx = g.x + g.w / 2;
      const cy = g.base - 0.3 * g.size;
      return cx >= link.x0 && cx <= link.x1 && cy >= link.top && cy <= link.bottom;
    }).length;
    if (inside * 2 > glyphs.length) return link.url;
  }
  return undefined;
}

/** A token's LaTeX: each glyph by the map, scripts grouped into ^{…} and _{…}. */
function tokenLatex(tok: Token, line: TextLine): string {
  const pieces: string[] = [];
  let group: { role: Role; parts: string[] } | undefined;
  const close = () => {
    if (group && group.role !== 'base') pieces.push(`${group.role === 'sup' ? '^' : '_'}{${joinLatex(group.parts)}}`);
    else if (group) pieces.push(...group.parts);
    group = undefined;
  };
  for (const g of tok.glyphs) {
    const r = role(g, line);
    if (!group || group.role !== r) {
      close();
      group = { role: r, parts: [] };
    }
    group.parts.push(glyphToLatex(g.ch));
  }
  close();
  return joinLatex(pieces);
}

/** Marks which tokens belong to maths runs: maths tokens, the maths-like tokens between them, and operands of operators at the edges. */
function mathRuns(tokens: Token[]): boolean[] {
  const inRun = tokens.map((t) => t.math);
  const idx = tokens.flatMap((t, i) => (t.math ? [i] : []));
  for (let k = 0; k + 1 < idx.length; k++) {
    const between = tokens.slice(idx[k] + 1, idx[k + 1]);
    if (between.every((t) => t.mathish)) for (let i = idx[k] + 1; i < idx[k + 1]; i++) inRun[i] = true;
  }
  for (let i = 0; i < tokens.length; i++) {
    if (!inRun[i]) continue;
    for (const dir of [-1, 1]) {
      let edge = i;
      let next = i + dir;
      while (next >= 0 && next < tokens.length && !inRun[next] && tokens[next].mathish && (tokens[edge].operator || tokens[next].operator)) {
        inRun[next] = true;
        edge = next;
        next += dir;
      }
    }
  }
  return inRun;
}

/**
 * The box a run of maths occupies: its glyphs' pen range, widened to halfway to the words either
 * side (at most half an em; the text layer's pen positions can fall short of a glyph's ink, and
 * the region reader takes a glyph by its ink's centre), and the line's band with room for scripts.
 */
function runBox(run: Token[], line: TextLine, before?: Pick<Token, 'glyphs'>, after?: Pick<Token, 'glyphs'>): Box {
  const glyphs = run.flatMap((t) => t.glyphs);
  const x0 = Math.min(...glyphs.map((g) => g.x));
  const x1 = Math.max(...glyphs.map((g) => g.x + g.w));
  const reach = 0.5 * line.size;
  const end = before && Math.max(...before.glyphs.map((g) => g.x + g.w));
  const start = after && Math.min(...after.glyphs.map((g) => g.x));
  return {
    x0: end === undefined ? x0 - reach : Math.max(x0 - reach, Math.min(x0, (end + x0) / 2)),
    y0: line.top - 0.2 * line.size,
    x1: start === undefined ? x1 + reach : Math.min(x1 + reach, Math.max(x1, (x1 + start) / 2)),
    y1: line.bottom + 0.1 * line.size,
  };
}

/** Writes a formula's LaTeX as inline maths (delimiters, the request's LaTeX options). */
export type InlineWriter = (latex: string) => string;
/** Changes a word of prose as the request asks (alphabets left out, punctuation widths); never maths. */
export type ProseWriter = (word: string) => string;

function renderGroup(tokens: Token[], line: TextLine, write: InlineWriter, regionLatex?: RegionLatex, prose?: ProseWriter): string {
  const inRun = mathRuns(tokens);
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!inRun[i]) {
      const word = tokens[i++].text;
      out.push(prose ? prose(word) : word);
      continue;
    }
    const run: Token[] = [];
    const before = tokens[i - 1];
    while (i < tokens.length && inRun[i]) run.push(tokens[i++]);
    let trailing = '';
    const last = run[run.length - 1];
    const tail = last.glyphs[last.glyphs.length - 1];
    if (last.glyphs.length > 1 && TRAILING_PUNCT.test(tail.ch) && !tail.mathFont) {
      trailing = tail.ch;
      run[run.length - 1] = { ...last, glyphs: last.glyphs.slice(0, -1) };
    }
    // Punctuation after the formula is no part of its region.
    const after = trailing ? { glyphs: [tail] } : tokens[i];
    // Marks alone are raised over nothing: the region reader would read them as a formula's base.
    const marksOnly = run.every((t) => t.marks);
    const latex = marksOnly
      ? `{}${run.map((t) => tokenLatex(t, line)).join('')}`
      : regionLatex?.(runBox(run, line, before, after)) || run.map((t) => tokenLatex(t, line)).join(' ');
    out.push(`${write(latex)}${trailing}`);
  }
  return out.filter((part) => part !== '').join(' ');
}

/** The MMD of one line: words (changed by `prose`), inline maths, and `[text](url)` where a link area covers the words. */
export function lineToMmd(line: TextLine, links: LinkArea[], write: InlineWriter, regionLatex?: RegionLatex, prose?: ProseWriter): string {
  const tokens = tokenize(line, links);
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const href = tokens[i].href;
    const group: Token[] = [];
    while (i < tokens.length && tokens[i].href === href) group.push(tokens[i++]);
    const text = renderGroup(group, line, write, regionLatex, prose);
    out.push(href ? `[${text}](${href})` : text);
  }
  return out.join(' ');
}

/** True when a word of the line is maths. */
export const hasMaths = (line: TextLine): boolean => tokenize(line, []).some((t) => t.math);

/** True when every word of the line is maths or maths-like and at least one is maths. */
export function isMathOnly(line: TextLine): boolean {
  const tokens = tokenize(line, []);
  return tokens.some((t) => t.math) && tokens.every((t) => t.math || t.mathish);
}

/** The whole line as LaTeX, for display maths. */
export function lineToLatex(line: TextLine): string {
  return tokenize(line, [])
    .map((t) => tokenLatex(t, line))
    .join(' ');
}
