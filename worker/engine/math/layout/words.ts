import { centreX, centreY, glyphOf, median, unionBox, type Element, type Glyph } from './element.js';

/** Function names typeset upright as one token; the longest match wins (`sinh` over `sin`). */
export const FUNCTION_NAMES =
  'arcsin arccos arctan sinh cosh tanh coth sin cos tan cot sec csc log ln lg exp lim max min sup inf det arg gcd deg dim ker hom Pr'
    .split(' ')
    .sort((a, b) => b.length - a.length);

/** Letters further apart than this (in em) are not one word. */
const LETTER_GAP_EM = 0.3;
/** …in a typewriter face, whose narrow letters sit in cells of 0.525 em: its word space is a whole cell. */
const TYPEWRITER_GAP_EM = 0.45;

const isTypewriter = (element: Element) => glyphOf(element)?.style === 'typewriter';
/** Upright letters further apart than this (in em) have a thin space between them. */
const THIN_SPACE_EM = 0.12;

const isLetter = (element: Element) => /^[a-zA-Z]$/u.test(glyphOf(element)?.latex ?? '');

/**
 * Reads runs of letters on one baseline as words: a function name becomes its command (`\sin`)
 * unless the source says the letters are italic (then they are a product of variables); other
 * runs of two or more upright letters become `\text{…}`. Done before limits, so `lim` can carry
 * `x \to 0` underneath.
 */
export function groupWords(elements: Element[]): Element[] {
  const letters = elements.filter(isLetter).sort((a, b) => a.box.x0 - b.box.x0);
  const used = new Set<Element>();
  const result = elements.filter((element) => !isLetter(element));
  for (const first of letters) {
    if (used.has(first)) continue;
    const run = [first];
    used.add(first);
    for (let last = first, next = nextLetter(last, letters, used, elements); next; next = nextLetter(last, letters, used, elements)) {
      run.push(next);
      used.add(next);
      last = next;
    }
    result.push(...readRun(run));
  }
  return joinLoneLetters(result, elements);
}

/** A word space between two words of text: wider than a thin space, narrower than a \quad. */
const WORD_SPACE_EM = [0.2, 0.6] as const;

const isTextWord = (element: Element) => element.node.kind === 'merged' && element.node.latex.startsWith('\\text{');

/**
 * An upright letter standing alone a word space before or after a `\text{…}` word on its
 * baseline is a word of that text (`\text{a shorter one}`, `\text{A very long expression}`), not
 * a variable: maths letters are italic, and an upright constant (`\mathrm{d}`, `\mathrm{e}`) sits
 * beside maths, not a word space from a word.
 */
function joinLoneLetters(result: Element[], elements: Element[]): Element[] {
  const out = [...result];
  for (const letter of result.filter((e) => isLetter(e) && glyphOf(e)?.style === 'upright')) {
    const text = out.find((w) => isTextWord(w) && spacedAsWords(letter, w, elements));
    if (!text || text.node.kind !== 'merged') continue;
    const inner = text.node.latex.slice('\\text{'.length, -1);
    const before = letter.box.x0 < text.box.x0;
    const latex = `\\text{${before ? `${glyphOf(letter)!.latex} ${inner}` : `${inner} ${glyphOf(letter)!.latex}`}}`;
    const node = { kind: 'merged' as const, latex, glyphs: [...text.node.glyphs, glyphOf(letter)!] };
    out.splice(out.indexOf(text), 1, { ...text, node, box: unionBox([text.box, letter.box]) });
    out.splice(out.indexOf(letter), 1);
  }
  return out;
}

/** True when `a` and `b` sit on one baseline a word space apart with nothing between them. */
function spacedAsWords(a: Element, b: Element, elements: Element[]): boolean {
  if (a.em === null || b.em === null) return false;
  const em = Math.max(a.em, b.em);
  const [left, right] = a.box.x0 < b.box.x0 ? [a, b] : [b, a];
  const gap = right.box.x0 - left.box.x1;
  const sameBaseline = Math.abs(a.baselineFor(a.em) - b.baselineFor(b.em)) < 0.12 * em;
  const between = elements.some(
    (e) => centreX(e.box) > left.box.x1 && centreX(e.box) < right.box.x0 && centreY(e.box) > left.box.y0 && centreY(e.box) < left.box.y1,
  );
  return sameBaseline && gap >= WORD_SPACE_EM[0] * em && gap <= WORD_SPACE_EM[1] * em && !between;
}

/** The letter continuing a word after `last` on its line, with nothing else between them (limits below do not count). */
function nextLetter(last: Element, letters: Element[], used: Set<Element>, elements: Element[]): Element | undefined {
  const next = letters.find((letter) => !used.has(letter) && letter.box.x0 > last.box.x0 && continuesWord(last, letter));
  if (!next) return undefined;
  const between = elements.some(
    (element) =>
      element !== last &&
      element !== next &&
      centreX(element.box) > centreX(last.box) &&
      centreX(element.box) < centreX(next.box) &&
      centreY(element.box) > last.box.y0 &&
      centreY(element.box) < last.box.y1,
  );
  return between ? undefined : next;
}

function continuesWord(previous: Element, next: Element): boolean {
  if (previous.em === null || next.em === null) return false;
  const em = Math.max(previous.em, next.em);
  const sameSize = previous.em / next.em > 0.8 && previous.em / next.em < 1.25;
  const sameBaseline = Math.abs(previous.baselineFor(previous.em) - next.baselineFor(next.em)) < 0.12 * em;
  if (isTypewriter(previous) !== isTypewriter(next)) return false;
  const gap = isTypewriter(next) ? TYPEWRITER_GAP_EM : LETTER_GAP_EM;
  return sameSize && sameBaseline && next.box.x0 - previous.box.x1 < gap * em;
}

function readRun(run: Element[]): Element[] {
  const glyphs = run.map((element) => glyphOf(element) as Glyph);
  // A run in a typewriter face is one name (`\texttt{width}`), its letters spaced by the face's cells.
  if (run.length > 1 && run.every(isTypewriter)) return [word(run, `\\texttt{${glyphs.map((glyph) => glyph.latex).join('')}}`)];
  // An upright run that function names do not cover end to end is a word (`atanh`, `maximum`), not
  // `a\tanh`, unless a thin space parts it: an upright constant before an operator (`\mathrm{i}\sin`).
  if (glyphs.every((glyph) => glyph.style === 'upright') && !coveredByNames(glyphs)) {
    const pieces = splitAtThinSpaces(run);
    if (pieces.length > 1) return pieces.flatMap(readRun);
    return [word(run, `\\text{${glyphs.map((glyph) => glyph.latex).join('')}}`)];
  }
  const result: Element[] = [];
  let upright: Element[] = [];
  // Upright letters beside italic ones are a word unless a thin space parts them (`\mathrm{i}\,\mathrm{d}y`).
  const flushUpright = () => {
    for (const piece of upright.length ? splitAtThinSpaces(upright) : []) {
      if (piece.length >= 2) result.push(word(piece, `\\text{${piece.map((e) => glyphOf(e)?.latex).join('')}}`));
      else result.push(...piece);
    }
    upright = [];
  };
  for (let i = 0; i < run.length;) {
    const name = glyphs[i].style === 'italic' ? undefined : FUNCTION_NAMES.find((candidate) => matchesAt(glyphs, i, candidate));
    if (name) {
      flushUpright();
      result.push(word(run.slice(i, i + name.length), `\\${name}`));
      i += name.length;
      continue;
    }
    if (glyphs[i].style === 'upright') upright.push(run[i]);
    else {
      flushUpright();
      result.push(run[i]);
    }
    i++;
  }
  flushUpright();
  return result;
}

/** The run cut where TeX's thin space (1/6 em) parts two letters; letters of a word sit closer. */
function splitAtThinSpaces(run: Element[]): Element[][] {
  const pieces: Element[][] = [[run[0]!]];
  for (let i = 1; i < run.length; i++) {
    const [previous, next] = [run[i - 1]!, run[i]!];
    const em = Math.max(previous.em ?? 0, next.em ?? 0);
    if (next.box.x0 - previous.box.x1 > THIN_SPACE_EM * em) pieces.push([]);
    pieces.at(-1)!.push(next);
  }
  return pieces;
}

/** True when the letters are one or more function names end to end (`sin`, `lnln`), or a single letter. */
function coveredByNames(glyphs: Glyph[]): boolean {
  if (glyphs.length < 2) return true;
  const covered = (start: number): boolean =>
    start === glyphs.length || FUNCTION_NAMES.some((name) => matchesAt(glyphs, start, name) && covered(start + name.length));
  return covered(0);
}

function matchesAt(glyphs: Glyph[], start: number, name: string): boolean {
  if (start + name.length > glyphs.length) return false;
  return [...name].every((letter, offset) => glyphs[start + offset].latex === letter && glyphs[start + offset].style !== 'italic');
}

function word(letters: Element[], latex: string): Element {
  const em = median(letters.map((letter) => letter.em as number)) as number;
  const baseline = median(letters.map((letter) => letter.baselineFor(letter.em as number))) as number;
  const node = { kind: 'merged' as const, latex, glyphs: letters.map((letter) => glyphOf(letter) as Glyph) };
  return { node, box: unionBox(letters.map((letter) => letter.box)), em, baselineFor: () => baseline };
}
