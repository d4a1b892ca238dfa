import type { PageOptions } from '../../core/queue/catalog.js';
import { binarise, scanNoise, type InkMask } from '../engine/math/image/binarise.js';
import type { GrayImage } from '../engine/math/types.js';
import { boxBeforeTurn } from '../engine/text/deskew.js';
import { boxToInput, boxToUpright, type Box } from '../engine/text/image.js';
import type { OcrResult } from '../engine/text/index.js';
import type { Band } from './bands.js';
import { columnBands, splitAtGutter } from './column-bands.js';
import { asPositive, withoutPageDress } from './page-dress.js';
import { readFormula, type MathEngines } from './formula-read.js';
import { crop, uprightGray } from './upright-image.js';
import { enclosing } from '../../page/geometry.js';
import { codeRuns } from '../../page/processors/code-lines.js';
import { proseGutter } from '../../page/processors/columns.js';
import { inlineSegments, withoutRules } from './inline-math.js';
import { countWords, isProse, isWordy, isWordyInPrint } from '../../page/processors/words.js';
import { chooseKind } from './line-kind.js';
import { formulaConfidence, type FormulaRead, type PageLine, type PageRecognition, type Segment } from '../../page/model.js';
import { withoutMarginNumbers } from './margin-numbers.js';
import { isEquationNumber } from '../../page/equation-number.js';
import { columnLeft, holdsEquationNumber, namesAboutRelation, readsNamesAboutRelation, readsNumberedDisplay } from './word-displays.js';

export type { MathEngines } from './formula-read.js';

/** A row of unbroken ink this many text-line heights long is a rule, not a glyph. */
const RULE_LINE_HEIGHTS = 3;

/**
 * Adds maths to a printed-text read of `png` (its OcrResult):
 * - 'formula': the whole image, turned upright, is read as one formula (with n-best candidates
 *   when asked); the text lines stay, labelled text, as evidence of what else the image holds;
 * - 'auto': the upright image is cut into ink bands (bands.ts); a band whose text read is wordy
 *   stays text, any other band is also read as maths and line-kind.ts picks the reading. When the
 *   image is a single maths band, that read is the formula of the whole image. Code (lines the
 *   text model read as a monospaced run that reads like code, code-lines.ts) stays text as read:
 *   `x = x + 1;` is not maths.
 * A page of text is read straightened as the text engine read it (pageSkew): on a page scanned
 * a degree askew, lines drift by more than the gap between them across the page, and its rows of
 * ink would run into each other.
 */
export async function addMath(png: Buffer, read: OcrResult, options: PageOptions, allEngines: MathEngines): Promise<PageRecognition> {
  const skew = pageSkew(read);
  const ofText = pageOfText(read);
  // A page of text printed light on dark is read as its negative (page-dress.ts).
  const turned = await uprightGray(png, read.rotation, skew);
  const { toInput, toUpright } = uprightFrame(read, skew, turned);
  const lineBoxes = read.lines.map((l) => toUpright(l.box));
  const upright = ofText ? asPositive(turned, lineBoxes) : turned;
  // Measured once on the whole page: every band and span cut from it is binarised with its paper.
  const paper: GrayImage = { ...upright, scan: scanNoise(upright) };
  // On a page of text, ink reaching the page's edge along its side is dress, no row of the page
  // (page-dress.ts), and margin line numbers are furniture, out of its lines and its ink alike (margin-numbers.ts).
  const {
    lines: readLines,
    mask,
    gray,
  } = ofText
    ? withoutMarginNumbers({ lines: read.lines, mask: withoutPageDress(binarise(paper), medianHeight(read.lines)), gray: paper }, toUpright, toInput)
    : { lines: read.lines, mask: binarise(paper), gray: paper };
  // A page of two columns is cut into rows of ink column by column, its text lines at the gutter (column-bands.ts).
  const gutter = ofText ? proseGutter(readLines.map((l) => ({ box: toUpright(l.box), text: l.text }))) : undefined;
  const ocrLines = splitAtGutter(readLines, gutter, toUpright, toInput);
  const uprightLines = ocrLines.map((l) => ({ box: toUpright(l.box), text: l.text }));
  const bands = columnBands(
    mask,
    gutter,
    ocrLines.filter((l) => !isEquationNumber(l.text)).map((l) => toUpright(l.box)),
    medianHeight(read.lines),
  );
  const handwriting = await allEngines.inkKind?.handwriting(gray, mask, bands);
  // The page's ink kind picks the symbol classifier every formula on it is read with (unsure, with the typeset classifier's certainty).
  const engines: MathEngines = { ...allEngines, symbols: (image) => allEngines.symbols(image, handwriting) };
  if (options.calibrate === false) {
    delete engines.formulaConfidence;
    delete engines.handwritingConfidence;
  }
  const base = {
    width: read.width,
    height: read.height,
    rotation: read.rotation,
    rotationConfidence: read.rotationConfidence,
    blank: bands.length === 0,
    handwriting,
  };
  const textLines: PageLine[] = ocrLines.map((l) => ({ ...l, kind: 'text' }));
  if (options.math === 'formula') {
    const text = textLines.map((l) => l.text).join(' ');
    return { ...base, lines: textLines, formula: await readFormula(gray, engines, { nBest: options.nBest, text }) };
  }
  const owner = textLines.map((l) => bandOf(bands, toUpright(l.box), gutter !== undefined));
  // A run of code spans rows of ink: lines the text model found in one band are pieces of one row
  // (a fraction's numerator `e->` over `P(X =k)` over `k!`), which the maths read judges.
  const runs = codeRuns(textLines).filter((r) => new Set(owner.slice(r.start, r.end)).size > 1);
  const code = new Set(runs.flatMap((r) => textLines.slice(r.start, r.end)));
  const lines: PageLine[] = [];
  let formula: FormulaRead | undefined;
  let page: UprightPage | undefined;
  for (const [index, whole] of bands.entries()) {
    const parts = bandParts(
      whole,
      textLines.filter((_, i) => owner[i] === index),
      toUpright,
    );
    for (const { band, mine } of parts) {
      // A table's or a footnote's rule alone in its band is no minus sign: read as `-`, it made a display.
      if (!mine.length && isRule(band, medianHeight(read.lines))) continue;
      if (mine.length && mine.every((l) => code.has(l))) {
        lines.push(...mine);
        continue;
      }
      const text = mine.map((l) => l.text).join(' ');
      // A line of two words is prose; one word may be a formula the text model half read, so the maths
      // read decides (line-kind.ts). The words of lines stacked in one band (a numerator over a
      // denominator, a sum's limits, subscripts the text model read as letters) are no line of
      // prose together: stacked lines are weighed one by one, by the wordiest.
      const evidence = proseEvidence(mine, toUpright).text;
      // A row of names about a relation, or one with an equation number of its own, reads as words yet may be a display (word-displays.ts).
      const boxes = mine.map((l) => toUpright(l.box));
      const names = namesAboutRelation(text, band.x0, columnLeft(band.x0, uprightLines, gutter), medianHeight(read.lines), boxes);
      const numbered = holdsEquationNumber(mine.map((l) => l.text));
      const math = isProse(evidence) && !names && !numbered ? undefined : await readFormula(crop(gray, band), engines, { text, row: true });
      const display = math && ((names && readsNamesAboutRelation(math)) || (numbered && readsNumberedDisplay(math)));
      const kind = math ? (display ? 'math' : chooseKind(evidence, math)) : 'text';
      if (kind === 'text' && isWordyInPrint(text)) {
        page ??= { gray, toInput, toUpright, prose: withoutRules(mask, RULE_LINE_HEIGHTS * medianHeight(read.lines)) };
        lines.push(...(await proseLines(mine, band, page, engines)));
        continue;
      }
      if (kind === 'text' || !math) {
        lines.push(...mine);
        continue;
      }
      const box = toInput({ x: band.x0, y: band.y0, width: band.x1 - band.x0, height: band.y1 - band.y0 });
      lines.push({ text, confidence: formulaConfidence(math), box, kind: 'math', math });
      if (bands.length === 1 && parts.length === 1) formula = math;
    }
  }
  // Text lines no band holds (a detector box over faint ink) keep their place at the end.
  lines.push(...textLines.filter((_, i) => owner[i] === -1));
  const whole = await wholeFormula(lines, gray, engines);
  if (whole) return { ...base, lines: [whole.line], formula: whole.formula };
  return { ...base, lines, ...(formula ? { formula } : {}) };
}

/** An image of at most this many rows, all maths, may be one formula read whole (an `align`, a system, a matrix). */
const WHOLE_FORMULA_MAX_ROWS = 6;
/**
 * The whole read is kept at this share of the rows' odds or more: rows read apart are each sure of
 * themselves, never of being apart (a `\substack`'s second line, stood clear of the first, read
 * `0<j<n` at 0.99 as a row of its own).
 */
const WHOLE_FORMULA_ODDS = 0.9;
/** A row of text among them holds at most this many words: a label (`my`, `if`, `otherwise`) the text model read apart. */
const WHOLE_FORMULA_MAX_WORDS = 2;

/**
 * The image read as one formula, when it holds a few rows of maths and nothing that reads as
 * prose, and that read is about as likely right as its rows read apart (its calibrated confidence
 * against the product of theirs, WHOLE_FORMULA_ODDS). Cut into rows, a multi-row formula loses
 * what only the whole shows: a row's letters beside a fraction taken for a word
 * (`m_y = \frac{3}{2}…` → `my`), a `\substack`'s second line taken for a row.
 */
async function wholeFormula(lines: PageLine[], gray: GrayImage, engines: MathEngines): Promise<{ line: PageLine; formula: FormulaRead } | undefined> {
  const maths = lines.filter((l) => l.kind === 'math');
  const label = (l: PageLine) => l.kind === 'text' && countWords(l.text).words <= WHOLE_FORMULA_MAX_WORDS;
  if (lines.length < 2 || lines.length > WHOLE_FORMULA_MAX_ROWS || maths.length === 0 || !lines.every((l) => l.kind === 'math' || label(l))) return undefined;
  if (!engines.formulaConfidence) return undefined;
  const text = lines.map((l) => l.text).join(' ');
  const formula = await readFormula(gray, engines, { text });
  const apart = lines.reduce((p, l) => p * l.confidence, 1);
  if (formula.handwritten || formulaConfidence(formula) < WHOLE_FORMULA_ODDS * apart) return undefined;
  return { line: { text, confidence: formulaConfidence(formula), box: enclosing(lines.map((l) => l.box)), kind: 'math', math: formula }, formula };
}

/** Lines of text (this many times as wide as they are tall, about eight characters) an image needs to be read straightened. */
const STRAIGHTEN_MIN_LINES = 3;
const LINE_ASPECT = 5;

/**
 * The skew the maths pass turns the image by: the text engine's, on an image holding
 * STRAIGHTEN_MIN_LINES lines of text or more, else 0. A formula's few boxes give the skew
 * measure nothing to go by (a formula's shape leans, not its lines: a fifth of the evaluation's
 * straight formula renders measured 0.5–4.5°), and it holds no lines that could run together.
 */
function pageSkew(read: OcrResult): number {
  return pageOfText(read) ? read.skew : 0;
}

/** Whether the image holds STRAIGHTEN_MIN_LINES lines of text or more: a page, not a formula. */
function pageOfText(read: OcrResult): boolean {
  const lines = read.lines.filter((l) => Math.max(l.box.width, l.box.height) >= LINE_ASPECT * Math.min(l.box.width, l.box.height));
  return lines.length >= STRAIGHTEN_MIN_LINES;
}

/** The text that tells whether lines are prose: stacked lines by their wordiest, others all together. */
function proseEvidence(lines: PageLine[], toUpright: (b: Box) => Box): { stacked: boolean; text: string } {
  const stacked = stackedRows(lines, toUpright);
  return { stacked, text: stacked ? wordiest(lines.map((l) => l.text)) : lines.map((l) => l.text).join(' ') };
}

/** Whether two of the lines stand one above the other (their boxes share no row). */
function stackedRows(lines: PageLine[], toUpright: (b: Box) => Box): boolean {
  const boxes = lines.map((l) => toUpright(l.box));
  return boxes.some((a, i) => boxes.slice(i + 1).some((b) => a.y + a.height <= b.y || b.y + b.height <= a.y));
}

/** The text holding the most words (the first of equals). */
function wordiest(texts: string[]): string {
  return texts.reduce((a, b) => (countWords(b).words > countWords(a).words ? b : a), '');
}

/** Text lines this many line heights apart in one band are in different columns. */
const COLUMN_GAP_LINE_HEIGHTS = 3;

/**
 * A band cut where its text lines stand COLUMN_GAP_LINE_HEIGHTS apart, when one side reads as
 * prose: two columns side by side (a display equation in one, prose in the other) are read
 * apart. A band of maths alone stays whole (an equation and its number, a formula with wide
 * spaces), and so does a band of one run of lines and an equation number. The cuts fall halfway
 * across the gaps.
 */
function bandParts(band: Band, mine: PageLine[], toUpright: (b: Box) => Box): { band: Band; mine: PageLine[] }[] {
  const sorted = mine.map((line) => ({ line, box: toUpright(line.box) })).sort((a, b) => a.box.x - b.box.x);
  const clusters: (typeof sorted)[] = [];
  for (const item of sorted) {
    const last = clusters.at(-1);
    const end = last ? Math.max(...last.map((i) => i.box.x + i.box.width)) : 0;
    if (last && item.box.x - end < COLUMN_GAP_LINE_HEIGHTS * item.box.height) last.push(item);
    else clusters.push([item]);
  }
  // A column of stacked lines (a numerator over its denominator: `am` over `an`) is prose only by a line of prose.
  const readsAsProse = (lines: PageLine[]) => {
    const { stacked, text } = proseEvidence(lines, toUpright);
    return stacked ? isProse(text) : isWordy(text);
  };
  // An equation number is no column: a row of words and its number (`F=ma or p=mv (1)`) stays whole.
  const columns = clusters.filter((c) => c.length > 1 || !isEquationNumber(c[0]!.line.text));
  if (columns.length < 2 || !clusters.some((c) => readsAsProse(c.map((i) => i.line)))) return [{ band, mine }];
  return clusters.map((cluster, k) => {
    const cut = (a: typeof cluster, b: typeof cluster) => Math.round((Math.max(...a.map((i) => i.box.x + i.box.width)) + b[0]!.box.x) / 2);
    const x0 = k === 0 ? band.x0 : cut(clusters[k - 1]!, cluster);
    const x1 = k === clusters.length - 1 ? band.x1 : cut(cluster, clusters[k + 1]!);
    return { band: { ...band, x0, x1 }, mine: cluster.map((i) => i.line) };
  });
}

interface UprightPage {
  gray: GrayImage;
  /** The ink without its rules (a table's, an underline): what inline-math.ts takes for unread ink. */
  prose: InkMask;
  toInput: (b: Box) => Box;
  toUpright: (b: Box) => Box;
}

/**
 * Boxes between the input image (where the text engine's boxes are) and the upright page: turned
 * by the page's skew (deskew.ts, centres turned, sizes kept), then by its rotation.
 */
function uprightFrame(read: OcrResult, skew: number, gray: GrayImage): Pick<UprightPage, 'toInput' | 'toUpright'> {
  const { rotation, width, height } = read;
  return {
    toInput: (b) => boxBeforeTurn(boxToInput(b, rotation, gray.width, gray.height), skew, width, height),
    toUpright: (b) => boxToUpright(boxBeforeTurn(b, -skew, width, height), rotation, gray.width, gray.height),
  };
}

/**
 * The text lines of one band with their inline formulas read (inline-math.ts). Each line owns the
 * band's columns from its start to the next line's (a band may hold two boxes side by side) and
 * the band's rows near its own box, so another line's ink is never taken for ink this line's
 * read missed.
 */
async function proseLines(mine: PageLine[], band: Band, page: UprightPage, engines: MathEngines): Promise<PageLine[]> {
  const { gray, prose, toInput, toUpright } = page;
  const starts = mine.map((l) => toUpright(l.box).x);
  const out: PageLine[] = [];
  for (const [i, line] of mine.entries()) {
    if (!line.words?.length) {
      out.push(line);
      continue;
    }
    const later = starts.filter((x) => x > starts[i]!);
    // Rows: the band's, within 0.4 of the line's height of its box (scripts and limits stand a
    // little above and below it), so a band two lines share (a tall fraction joins them) is cut.
    const box = toUpright(line.box);
    const [y0, y1] = [Math.max(band.y0, Math.floor(box.y - 0.4 * box.height)), Math.min(band.y1, Math.ceil(box.y + 1.4 * box.height))];
    // Columns: from the line's box to the next line's start, and no further than a line height
    // beyond its box (ink further off is another column's, a figure's, an equation's).
    const reach = box.height;
    const x0 = Math.max(starts.some((x) => x < starts[i]!) ? starts[i]! : band.x0, box.x - reach);
    const x1 = Math.min(later.length ? Math.min(...later) : band.x1, box.x + box.width + reach);
    const own: Band = { y0, y1, x0: Math.floor(x0), x1: Math.ceil(x1) };
    const words = line.words.map((w) => ({ ...w, box: toUpright(w.box) }));
    const readSpan = (x0: number, x1: number) => readFormula(crop(gray, { ...own, x0, x1 }), engines);
    const segments = await inlineSegments(words, own, prose, readSpan);
    if (!segments) {
      out.push(line);
      continue;
    }
    const back: Segment[] = segments.map((s) =>
      s.kind === 'math' ? { ...s, box: toInput(s.box) } : { ...s, words: s.words.map((w) => ({ ...w, box: toInput(w.box) })) },
    );
    out.push({ ...line, confidence: mixedConfidence(back), segments: back });
  }
  return out;
}

/**
 * A band of ink no thicker than RULE_MAX_THICKNESS of a text line and LONE_RULE_LINE_HEIGHTS lines
 * long, with no text line: a rule (a minus sign or a dash alone is no display). A footnote's rule
 * in one column of two is about three lines long.
 */
const isRule = (band: Band, lineHeight: number) =>
  band.y1 - band.y0 <= RULE_MAX_THICKNESS * lineHeight && band.x1 - band.x0 >= LONE_RULE_LINE_HEIGHTS * lineHeight;
const RULE_MAX_THICKNESS = 0.25;
const LONE_RULE_LINE_HEIGHTS = 1.5;

/** The median height of the text lines' boxes (at least 3 pixels). */
function medianHeight(lines: { box: Box }[]): number {
  const heights = lines.map((l) => Math.min(l.box.width, l.box.height)).sort((a, b) => a - b);
  return Math.max(3, heights[Math.floor(heights.length / 2)] ?? 0);
}

/** A mixed line is right when its words are (their mean confidence) and every formula is. */
function mixedConfidence(segments: Segment[]): number {
  const words = segments.flatMap((s) => (s.kind === 'text' ? s.words : []));
  const text = words.length ? words.reduce((sum, w) => sum + w.confidence, 0) / words.length : 1;
  return segments.reduce((p, s) => (s.kind === 'math' ? p * s.math.confidence : p), text);
}

/** The band holding most of the box's height, or -1; on a page of `columns`, of the bands sharing some of its width. */
function bandOf(bands: Band[], box: Box, columns: boolean): number {
  let best = -1;
  let most = 0;
  bands.forEach((b, i) => {
    if (columns && (b.x1 <= box.x || b.x0 >= box.x + box.width)) return;
    const overlap = Math.min(b.y1, box.y + box.height) - Math.max(b.y0, box.y);
    if (overlap > most) [best, most] = [i, overlap];
  });
  return best;
}
