import { inlineMath } from '../../../page/render/mmd.js';
import { type SourceToken, tokenKey } from './office-maths.js';

/**
 * Puts an office file's formulas (read from the file by pandoc, office-maths.ts) back into the MMD
 * of the pages its PDF rendering gave. Each page's words are aligned with the source's words (a
 * longest common subsequence over a window after the previous page's last match); a formula goes
 * in the gap between the matched words around it. A gap that holds only formulas in the source
 * loses whatever the PDF showed there (a formula drawn as loose glyphs), unless that is Markdown
 * structure (a heading or list marker).
 */

/** What a page renderer gives: its MMD and the lines that produced each part of it. */
export interface RenderedMmd<L extends { mmd: string; start: number; end: number }> {
  mmd: string;
  lines: L[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

interface PageToken {
  start: number;
  end: number;
  key: string;
}

const MARKDOWN_MARKER = /^(#{1,6}|[-*+•]|\d+[.)])$/;

/** Places formulas in a document's pages in order; one instance per document. */
export class SourceMathsPlacer {
  private next = 0;

  constructor(
    private readonly tokens: SourceToken[],
    private readonly delimiters: { inline: [string, string]; display: [string, string] },
  ) {}

  /** The page with its formulas in place, its lines' offsets and MMD moved to match. `last`: the final page takes every formula left. */
  place<L extends { mmd: string; start: number; end: number }>(page: RenderedMmd<L>, last = false): RenderedMmd<L> {
    const words = [...page.mmd.matchAll(/\S+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, key: tokenKey(m[0]) }));
    const from = this.next;
    const to = Math.min(this.tokens.length, from + words.length * 3 + 200);
    const pairs = align(words, this.tokens, from, to);
    if (!pairs.length) return page;
    const edits: Edit[] = [];
    const [firstWord, firstSource] = pairs[0]!;
    const lead = this.maths(from, firstSource);
    if (lead.length) {
      // Before the first matched word; a display goes before anything else on the page.
      const at = lead.some((m) => m.display) ? 0 : words[firstWord]!.start;
      edits.push({ start: at, end: at, text: this.sequence(lead, false) + trail(lead, this.tokens[firstSource]) });
    }
    for (let p = 0; p + 1 < pairs.length; p++) this.gap(page.mmd, words, pairs[p]!, pairs[p + 1]!, edits);
    const [lastWord, lastSource] = pairs[pairs.length - 1]!;
    this.next = lastSource + 1;
    if (last) {
      this.gap(page.mmd, words, [lastWord, lastSource], [words.length, this.tokens.length], edits);
      this.next = this.tokens.length;
    }
    return applyEdits(page, edits);
  }

  /** The formulas among source tokens [a, b). */
  private maths(a: number, b: number): MathToken[] {
    return this.tokens.slice(a, b).filter((t): t is MathToken => t.kind === 'math');
  }

  /** The formulas of the source between matched words (page word w1 = source s1, w2 = s2) as an edit of the page. */
  private gap(mmd: string, words: PageToken[], [w1, s1]: [number, number], [w2, s2]: [number, number], edits: Edit[]): void {
    const maths = this.maths(s1 + 1, s2);
    if (!maths.length) return;
    const next = words[w2];
    const following = this.tokens[s2];
    const between = words.slice(w1 + 1, w2);
    const sourceWords = this.tokens.slice(s1 + 1, s2).some((t) => t.kind === 'word');
    const after = words[w1]!.end;
    if (!sourceWords && between.every((w) => !MARKDOWN_MARKER.test(w.key))) {
      // Only formulas stood here: what the page shows in the gap (nothing, or loose glyphs) gives way.
      edits.push({ start: after, end: next?.start ?? after, text: this.sequence(maths, true) + (next ? trail(maths, following) : '') });
    } else if (next && maths[0]!.breakBefore && !maths.some((m) => m.display)) {
      // Inline formulas opening a block (a list item): after the block's marker, before its first word.
      edits.push({ start: next.start, end: next.start, text: this.sequence(maths, false) + trail(maths, following) });
    } else {
      const space = /^[ \t]*/.exec(mmd.slice(after))![0].length;
      const display = maths[maths.length - 1]!.display;
      edits.push({ start: after, end: after + (display ? space : 0), text: this.sequence(maths, true) + (display ? '\n\n' : '') });
    }
  }

  /** Formulas with the spacing the source had between them; `lead`: with the separator before the first too. */
  private sequence(maths: MathToken[], lead: boolean): string {
    let text = '';
    maths.forEach((m, i) => {
      if (i > 0 || lead) text += m.display || maths[i - 1]?.display || m.breakBefore ? '\n\n' : m.spaceBefore ? ' ' : '';
      const [open, close] = this.delimiters.display;
      text += m.display ? `${open}\n${m.latex}\n${close}` : inlineMath(m.latex, { math_inline_delimiters: this.delimiters.inline });
    });
    return text;
  }
}

type MathToken = Extract<SourceToken, { kind: 'math' }>;

/** The separator between the last of `maths` and the source token after them. */
function trail(maths: MathToken[], following: SourceToken | undefined): string {
  if (maths[maths.length - 1]!.display || following?.breakBefore) return '\n\n';
  return following?.spaceBefore ? ' ' : '';
}

/** Longest common subsequence of word keys between the page and source tokens [from, to): matched (page index, source index) pairs in order. */
function align(words: PageToken[], tokens: SourceToken[], from: number, to: number): [number, number][] {
  const n = words.length;
  const m = to - from;
  if (!n || m <= 0) return [];
  const keys = tokens.slice(from, to).map((t) => (t.kind === 'word' ? t.key : '\u0000math'));
  const dp = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) dp[at(i, j)] = words[i]!.key === keys[j] ? dp[at(i + 1, j + 1)]! + 1 : Math.max(dp[at(i + 1, j)]!, dp[at(i, j + 1)]!);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (words[i]!.key === keys[j]) pairs.push([i++, from + j++]);
    else if (dp[at(i + 1, j)]! >= dp[at(i, j + 1)]!) i++;
    else j++;
  }
  return pairs;
}

/** Applies non-overlapping edits (in any order) and moves each line's offsets: an insertion at a line's end belongs to that line. */
function applyEdits<L extends { mmd: string; start: number; end: number }>(page: RenderedMmd<L>, edits: Edit[]): RenderedMmd<L> {
  if (!edits.length) return page;
  edits.sort((a, b) => a.start - b.start);
  let mmd = '';
  let from = 0;
  for (const e of edits) {
    mmd += page.mmd.slice(from, e.start) + e.text;
    from = e.end;
  }
  mmd += page.mmd.slice(from);
  const move = (p: number, end: boolean) => {
    let shift = 0;
    for (const e of edits) {
      if (p < e.start || (p === e.start && !end)) return p + shift;
      if (p === e.start || p < e.end) return e.start + shift + (end ? e.text.length : 0);
      shift += e.text.length - (e.end - e.start);
    }
    return p + shift;
  };
  const lines = page.lines.map((l) => {
    const start = move(l.start, false);
    const end = Math.max(start, move(l.end, true));
    return { ...l, start, end, mmd: mmd.slice(start, end) };
  });
  return { mmd, lines };
}
