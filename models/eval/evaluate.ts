import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf } from '../../worker/document/pipeline/pdf.js';
import { addTally, matchSymbols, NO_TALLY, type LabelledBox, type ScoredFormula, type SymbolTally } from '../../worker/engine/math/eval-metrics.js';
import type { MathSymbol } from '../../worker/engine/math/types.js';
import type { Formula } from './corpus.js';
import type { ImageFrontEnd, Loaded, Parts, PdfFrontEnd } from './front-ends.js';
import { readPgm } from './pgm.js';
import type { Dpi, RenderedCorpus, RenderedFormula } from './render.js';

/** Runs each front end over the rendered corpus: one recognition a formula, timed, scored under normaliseLatex. */

export interface Evaluation {
  frontEnd: string;
  /** Set when the row could not be run; the report prints it as "not available". */
  unavailable?: string;
  rows: ScoredFormula[];
  /** Image rows: label agreement with the PDF glyphs of the same page. */
  symbols?: SymbolTally;
  symbolsUnavailable?: string;
}

/** Symbols of each formula as the PDF front end read them, in page points: the image rows' ground truth. */
export type GroundTruth = Map<string, MathSymbol[]>;

/** The rendered pages of the formulas this run evaluates (all of them unless --limit). */
function selected(rendered: RenderedCorpus, formulas: readonly Formula[]): RenderedFormula[] {
  const ids = new Set(formulas.map((f) => f.id));
  return rendered.formulas.filter((r) => ids.has(r.formula.id));
}

const stacksShown = new Set<string>();
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Recognises one formula and scores it. A throw anywhere (normalising the expected LaTeX,
 * recognising, normalising the answer) is printed at once and kept on the row, which then counts
 * as wrong: the run goes on so the table shows how widespread it is, and ends with a failing exit code.
 */
async function scoreOne(
  frontEnd: string,
  formula: Formula,
  parts: Parts,
  /** Returns the recognised LaTeX. */
  recognise: () => Promise<string>,
): Promise<ScoredFormula> {
  const row: ScoredFormula = { id: formula.id, category: formula.category, source: formula.latex, expected: '', got: '', ms: 0 };
  let step = 'normaliseLatex(expected)';
  try {
    row.expected = parts.normaliseLatex(formula.latex);
    step = 'recognition';
    const start = performance.now();
    const latex = await recognise();
    row.ms = performance.now() - start;
    step = 'normaliseLatex(recognised)';
    row.got = parts.normaliseLatex(latex);
  } catch (err) {
    row.error = `${step} threw: ${errorText(err)}`;
    console.error(`[${frontEnd}] ${formula.id} ${formula.latex}: ${row.error}`);
    // The stack once per distinct error: a missing model fails every formula the same way.
    if (!stacksShown.has(row.error) && err instanceof Error && err.stack) {
      stacksShown.add(row.error);
      console.error(err.stack.split('\n').slice(1, 6).join('\n'));
    }
  }
  return row;
}

/**
 * The first call of a front end loads its model and warms caches: run it once untimed so the
 * median describes steady state. Its outcome is discarded; the timed pass records any throw.
 */
async function warmUp(recognise: () => Promise<string>): Promise<void> {
  await recognise().catch(() => undefined);
}

export async function evaluatePdf(
  rendered: RenderedCorpus,
  formulas: readonly Formula[],
  parts: Parts,
  frontEnd: PdfFrontEnd,
): Promise<{ evaluation: Evaluation; truth: GroundTruth }> {
  const name = 'PDF glyphs';
  const document = await openPdf(rendered.pdfPath);
  const truth: GroundTruth = new Map();
  const rows: ScoredFormula[] = [];
  try {
    // Fetching the page object is document plumbing and stays outside the timing; reading its glyphs and rules is the front end's work.
    // The symbols become ground truth as soon as they are read, whether or not the parser then copes with them.
    const recognise = (page: PDFPageProxy, id: string) => async (): Promise<string> => {
      const math = await frontEnd.readPdfMath(page);
      const symbols = frontEnd.symbolsInRegion(math, { x0: 0, y0: 0, x1: math.width, y1: math.height });
      truth.set(id, symbols);
      return (await parts.parseLayout(symbols)).latex;
    };
    const items = selected(rendered, formulas);
    await warmUp(recognise(await document.getPage(items[0].page), items[0].formula.id));
    for (const item of items) {
      rows.push(await scoreOne(name, item.formula, parts, recognise(await document.getPage(item.page), item.formula.id)));
    }
  } finally {
    await document.destroy();
  }
  return { evaluation: { frontEnd: name, rows }, truth };
}

/** Image rows: the cropped page raster at one resolution through the image front end and the parser. */
export async function evaluateImage(
  rendered: RenderedCorpus,
  formulas: readonly Formula[],
  dpi: Dpi,
  parts: Parts,
  frontEnd: ImageFrontEnd,
  truth: Loaded<GroundTruth>,
): Promise<Evaluation> {
  const name = `image ${dpi} dpi`;
  const items = selected(rendered, formulas);
  const images = await Promise.all(items.map((item) => readPgm(item.crops[dpi].path)));
  // Symbol accuracy is the front end's score, so it is kept even when the parser then throws.
  const found = new Map<number, MathSymbol[]>();
  const recogniseAt = (index: number) => async (): Promise<string> => {
    const symbols = await frontEnd.symbolsFromImage(images[index]);
    found.set(index, symbols);
    return (await parts.parseLayout(symbols)).latex;
  };
  await warmUp(recogniseAt(0));
  const rows: ScoredFormula[] = [];
  for (const [index, item] of items.entries()) rows.push(await scoreOne(name, item.formula, parts, recogniseAt(index)));

  let symbols = NO_TALLY;
  for (const [index, item] of items.entries()) {
    const pageSymbols = truth.ok ? truth.value.get(item.formula.id) : undefined;
    if (!pageSymbols) continue;
    // PDF points → pixels of this crop: scale by dpi/72, then shift by where the crop sits on the page raster.
    const scale = dpi / 72;
    const { x0, y0 } = item.crops[dpi].box;
    const toPixels = (s: MathSymbol): LabelledBox => ({
      latex: s.latex,
      box: { x0: s.box.x0 * scale - x0, y0: s.box.y0 * scale - y0, x1: s.box.x1 * scale - x0, y1: s.box.y1 * scale - y0 },
    });
    symbols = addTally(symbols, matchSymbols(pageSymbols.map(toPixels), found.get(index) ?? []));
  }
  return truth.ok ? { frontEnd: name, rows, symbols } : { frontEnd: name, rows, symbolsUnavailable: `no ground truth: ${truth.reason}` };
}
