import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Box } from '../types.js';
import { fontFacts, glyphInk, type FontObject, type FontFacts } from './glyph-ink.js';
import { applyMatrix, type Matrix, multiplyMatrix, transformBox } from './matrix.js';

/**
 * Replays a page's pdf.js operator list the way pdf.js's canvas renderer does — graphics state,
 * text state and paths — but instead of painting it records every glyph (character, font, ink box)
 * and every thin horizontal rule. Nothing is rasterised: boxes come from the font's outlines.
 * Coordinates are PDF points in the unrotated page, origin top-left, y down.
 */

export interface PdfGlyph {
  /** pdf.js's Unicode for the glyph ('' when the font has none). */
  unicode: string;
  /** The character code in the PDF string: CMEX glyphs are identified by it, their names having no Unicode. */
  code: number;
  font: FontFacts;
  /** Font size in points after all transforms. */
  size: number;
  /** Baseline y and the pen's x range (advance width). */
  baseline: number;
  x0: number;
  x1: number;
  /** Ink extents from the glyph outline, or ascent/descent × advance when there is no outline. */
  box: Box;
  /** False when `box` came from font metrics rather than the outline. */
  exactInk: boolean;
}

export interface PdfPageMath {
  width: number;
  height: number;
  glyphs: PdfGlyph[];
  /** Thin horizontal rules (filled or stroked): fraction bars, vinculums, overlines, minus signs drawn as rules. */
  rules: Box[];
  /** Thin vertical rules: the sides of a `\boxed` frame (with two horizontal ones), a table's column rules. Absent: none read. */
  verticalRules?: Box[];
}

interface TextState {
  font?: FontObject;
  fontSize: number;
  /** -1 when the PDF gave a negative size (mirrored text). */
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  rise: number;
  leading: number;
}

interface State {
  ctm: Matrix;
  lineWidth: number;
  text: TextState;
}

/** A filled or stroked shape no taller than this (in points) and at least RULE_ASPECT times as wide is a rule. */
const RULE_MAX_THICKNESS_PT = 3;
const RULE_ASPECT = 1.5;
/** pdf.js operators that paint the current path; the STROKE_OPS among them also stroke it. */
export const PAINT_OPS = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);
export const STROKE_OPS = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

/**
 * Reads the glyphs and rules of one page. Pass the operator list when the caller already has it;
 * the page must have been opened with `disableFontFace: true` so pdf.js ships glyph outlines.
 */
export async function readPdfMath(page: PDFPageProxy, opList?: { fnArray: number[]; argsArray: unknown[][] }): Promise<PdfPageMath> {
  const ops = opList ?? (await page.getOperatorList());
  const viewport = page.getViewport({ scale: 1 });
  const glyphs: PdfGlyph[] = [];
  const rules: Box[] = [];
  const verticalRules: Box[] = [];
  const stack: State[] = [];
  let state: State = {
    ctm: viewport.transform as Matrix,
    lineWidth: 1,
    text: { fontSize: 0, fontDirection: 1, charSpacing: 0, wordSpacing: 0, hScale: 1, rise: 0, leading: 0 },
  };
  // Text matrix and line origin live between BT and ET only.
  let textMatrix: Matrix = [1, 0, 0, 1, 0, 0];
  let x = 0;
  let y = 0;
  let lineX = 0;
  let lineY = 0;
  const moveText = (dx: number, dy: number) => {
    x = lineX += dx;
    y = lineY += dy;
  };
  const font = (id: string): FontObject | undefined => (page.commonObjs.has(id) ? (page.commonObjs.get(id) as FontObject) : undefined);

  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push({ ...state, text: { ...state.text } });
        break;
      case OPS.restore:
        state = stack.pop() ?? state;
        break;
      case OPS.transform:
        state.ctm = multiplyMatrix(state.ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ...state, text: { ...state.text } });
        if (args[0]) state.ctm = multiplyMatrix(state.ctm, Array.from(args[0] as ArrayLike<number>));
        break;
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case OPS.setLineWidth:
        state.lineWidth = args[0] as number;
        break;
      case OPS.beginText:
        textMatrix = [1, 0, 0, 1, 0, 0];
        x = y = lineX = lineY = 0;
        break;
      case OPS.setFont: {
        const size = args[1] as number;
        state.text.font = font(args[0] as string);
        state.text.fontSize = Math.abs(size);
        state.text.fontDirection = size < 0 ? -1 : 1;
        break;
      }
      case OPS.setCharSpacing:
        state.text.charSpacing = args[0] as number;
        break;
      case OPS.setWordSpacing:
        state.text.wordSpacing = args[0] as number;
        break;
      case OPS.setHScale:
        state.text.hScale = (args[0] as number) / 100;
        break;
      case OPS.setLeading:
        state.text.leading = -(args[0] as number);
        break;
      case OPS.setTextRise:
        state.text.rise = args[0] as number;
        break;
      case OPS.moveText:
        moveText(args[0] as number, args[1] as number);
        break;
      case OPS.setLeadingMoveText:
        state.text.leading = args[1] as number;
        moveText(args[0] as number, args[1] as number);
        break;
      case OPS.setTextMatrix:
        textMatrix = Array.from(args[0] as ArrayLike<number>) as Matrix;
        x = y = lineX = lineY = 0;
        break;
      case OPS.nextLine:
        moveText(0, state.text.leading);
        break;
      case OPS.showText:
        x += showText(args[0] as unknown[], state, multiplyMatrix(state.ctm, textMatrix), x, y, page, glyphs);
        break;
      case OPS.constructPath:
        collectRule(args, state, rules, verticalRules);
        break;
      case OPS.paintSolidColorImageMask:
        // dvips output distilled by Ghostscript paints TeX's rules as 1-bit masks over the unit square.
        addRule(transformBox(state.ctm, 0, 0, 1, 1), rules, verticalRules);
        break;
    }
  }
  return { width: viewport.width, height: viewport.height, glyphs, rules, verticalRules };
}

interface PdfJsGlyph {
  fontChar: string;
  unicode: string;
  originalCharCode: number;
  width: number;
  isSpace: boolean;
}

/** Records the glyphs of one showText and returns the pen advance in text space (pdf.js's canvas.showText). */
function showText(items: unknown[], state: State, textToPage: Matrix, x: number, y: number, page: PDFPageProxy, out: PdfGlyph[]): number {
  const t = state.text;
  const f = t.font;
  if (!f || t.fontSize === 0) return 0;
  const facts = fontFacts(f);
  const hScale = t.hScale * t.fontDirection;
  // Glyph widths are in glyph units; the font matrix turns them into ems (1/1000 for most fonts).
  const unitsToEm = f.fontMatrix?.[0] ?? 0.001;
  // Glyph space (ems, y up) → page: text matrix, pen position, rise, horizontal scaling, font size.
  const base = multiplyMatrix(textToPage, [hScale, 0, 0, 1, x, y + t.rise]);
  const size = Math.hypot(base[2], base[3]) * t.fontSize;
  let pen = 0;
  for (const item of items) {
    if (typeof item === 'number') {
      pen -= (item * t.fontSize) / 1000;
      continue;
    }
    const g = item as PdfJsGlyph;
    const advance = g.width * unitsToEm;
    const em = multiplyMatrix(base, [t.fontSize, 0, 0, t.fontSize, pen, 0]);
    // Extension-font glyphs without Unicode come back as their raw codes, and codes 9–13 and 32
    // (the big |, ‖, ⟨, ⟩ and the largest parenthesis) are whitespace characters: such a glyph is a
    // space only when it draws nothing.
    const ink = glyphInk(page.commonObjs, f, g.fontChar);
    if (g.unicode.trim() !== '' || ink !== undefined) {
      const emBox = ink ?? { x0: 0, y0: facts.descent, x1: advance, y1: facts.ascent };
      const box = transformBox(em, emBox.x0, emBox.y0, emBox.x1, emBox.y1);
      const [px0, baseline] = applyMatrix(em, 0, 0);
      const [px1] = applyMatrix(em, advance, 0);
      if (box.x1 > box.x0) {
        out.push({
          unicode: g.unicode,
          code: g.originalCharCode,
          font: facts,
          size,
          baseline,
          x0: Math.min(px0, px1),
          x1: Math.max(px0, px1),
          box,
          exactInk: ink !== undefined,
        });
      }
    }
    pen += advance * t.fontSize + ((g.isSpace ? t.wordSpacing : 0) + t.charSpacing) * t.fontDirection;
  }
  return pen * hScale;
}

/** Adds the painted shape's box to `rules` (`verticalRules`) when it is a thin horizontal (vertical) bar: a filled rectangle or a stroked line. */
function collectRule(args: unknown[], state: State, rules: Box[], verticalRules: Box[]): void {
  const [op, , minMax] = args as [number, unknown, number[] | null];
  if (!PAINT_OPS.has(op) || !minMax || minMax.length < 4) return;
  const [minX, minY, maxX, maxY] = minMax;
  // A stroke paints half the line width either side of the path.
  const half = STROKE_OPS.has(op) ? state.lineWidth / 2 : 0;
  // A vertical line's stroke widens it sideways.
  const vertical = maxX - minX < maxY - minY;
  addRule(
    transformBox(state.ctm, minX - (vertical ? half : 0), minY - (vertical ? 0 : half), maxX + (vertical ? half : 0), maxY + (vertical ? 0 : half)),
    rules,
    verticalRules,
  );
}

/** Adds a painted box to `rules` when it is a thin horizontal bar, to `verticalRules` when it is a thin vertical one. */
function addRule(box: Box, rules: Box[], verticalRules: Box[]): void {
  const height = box.y1 - box.y0;
  const width = box.x1 - box.x0;
  if (height > 0 && height <= RULE_MAX_THICKNESS_PT && width >= RULE_ASPECT * height) rules.push(box);
  else if (width > 0 && width <= RULE_MAX_THICKNESS_PT && height >= RULE_ASPECT * width) verticalRules.push(box);
}
