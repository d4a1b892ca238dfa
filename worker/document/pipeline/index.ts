import { stat } from 'node:fs/promises';
import { ApiError } from '../../../core/errors.js';
import type { ChemistryOptions } from '../../../core/chemistry.js';
import { layoutPage, RunningLines, type TextLayerReading } from '../../../page/processors/text-layer-blocks.js';
import { type AssemblyOptions, textLayerWords } from '../../../page/assemble.js';
import { detectFileType, detectType, type DocumentType } from './detect.js';
import { emptyPageLines, type LineEntry, type MmdLineEntry, type PageLines, pageLines } from '../../../page/render/lines-json.js';
import { OFFICE_TIMEOUT_MS, officeToPdf, type ConvertedPdf, type OfficeOptions } from './office.js';
import { epubToPdf } from './epub.js';
import { kfxUnsupported, mobiToPdf } from './ebook.js';
import { djvuToPdf } from './djvu.js';
import { pageMathLatex, type ParseMath } from './math-latex.js';
import { groupDisplayMath, isDisplayLine, standsAlone } from './math-regions.js';
import { findTables } from '../../../page/processors/text-layer-tables.js';
import { isBullet, makeLine } from './text-layer.js';
import { renderTextLayerPage, type TextLayerRead } from '../../../page/render/text-layer-page.js';
import { DEFAULT_DISPLAY, DEFAULT_INLINE, inlineMath, numbersAsMath, styleLatex } from '../../../page/render/mmd.js';
import type { RenderOptions } from '../../../page/render/options.js';
import { SectionNumbers, type SectionNumbering } from '../../../page/render/section-numbers.js';
import { hasMaths, isMathOnly, lineToLatex, lineToMmd } from './inline.js';
import { parsePageRanges } from './page-ranges.js';
import { PdfReader } from './pdf-reader.js';
import { readSourceMaths, type SourceToken } from './office-maths.js';
import { SourceMathsPlacer } from './office-maths-place.js';
import type { FigureSink } from './page-figures.js';
import { parseLayout } from '../../engine/math/layout/index.js';
import { PageInfo, renderScannedPage } from './scanned-page.js';
import { runPage, type OcrPage, type PageContentLines, type PageOutcome, type PageResult } from './run-page.js';

export { detectType, parsePageRanges };
export type { DocumentType, FigureSink, OcrPage, PageOutcome };

/** @defaultValue 5000 pages per document (spec 8, private-cloud policy default). */
export const DEFAULT_MAX_PAGES = 5000;
/** @defaultValue 15 s per page (spec 8, private-cloud policy default). */
export const PAGE_TIMEOUT_MS = 15_000;
/**
 * The line written after each page when includePageBreaks is set. The hosted service's exact
 * marker is not in our spec; an HTML comment renders as nothing in Markdown viewers and is easy to
 * split on, so that is what we write until the real convention is confirmed.
 */
export const PAGE_BREAK_MARKER = '<!-- pagebreak -->';

export interface DocumentOptions {
  /** Spec 4.7 syntax: '2,4-6', '2 - -2'; negatives count from the end. @defaultValue all pages */
  pageRanges?: string;
  /** @defaultValue 5000 */
  maxPages?: number;
  /** A page taking longer fails with page_timeout and the next page goes on. @defaultValue 15000 */
  pageTimeoutMs?: number;
  /** @defaultValue ['\\(', '\\)'] */
  mathInlineDelimiters?: [string, string];
  /** @defaultValue ['\\[', '\\]'] */
  mathDisplayDelimiters?: [string, string];
  /** Writes PAGE_BREAK_MARKER on its own line after every page. @defaultValue false */
  includePageBreaks?: boolean;
  /** http, https and mailto link annotations become `[text](url)`. @defaultValue false */
  includeHyperlinks?: boolean;
  /** Keep running headers, footers and page numbers. @defaultValue false */
  includePageInfo?: boolean;
  /** A display equation's number at the right margin becomes `\tag{n}` in its LaTeX. @defaultValue false */
  includeEquationTags?: boolean;
  /** Lists written one item a line with their markers as printed, not as itemize environments (4.2). @defaultValue false */
  disableItemize?: boolean;
  /** Code written as fenced blocks instead of lstlisting environments (4.2). @defaultValue false */
  disableLstlisting?: boolean;
  /** false keeps the spacing between tokens in equations (4.2 rule 4). @defaultValue true */
  rmSpaces?: boolean;
  /** Font commands (bold, roman, …) removed from equations (4.2 rule 4). @defaultValue false */
  rmFonts?: boolean;
  /** aligned, gathered and cases instead of arrays (4.2 rule 6; include_equation_tags forces it). @defaultValue false */
  idiomaticEqnArrays?: boolean;
  /** Every number of the prose is written as inline maths (page/render/mmd.ts numbersAsMath). @defaultValue false */
  numbersDefaultToMath?: boolean;
  /** alphabets_allowed, checked when the request came in: the alphabets set to false are left out of the text, never the maths. */
  alphabetsAllowed?: Record<string, boolean>;
  /** Section numbers of headings: the printed ones removed, or removed and the headings numbered in order. @defaultValue as printed */
  sectionNumbering?: SectionNumbering;
  /** fullwidth_punctuation: true or false forces one form; null keeps a text layer's own and suits a scanned line's script. */
  fullwidthPunctuation?: boolean | null;
  /** Structure diagrams among the figures become SMILES (worker/chemistry/). @defaultValue not looked for */
  chemistry?: ChemistryOptions;
}

export interface DocumentResult {
  numPagesPdf: number;
  pages: PageOutcome[];
  mmd: string;
  linesJson: { pages: PageLines<LineEntry>[] };
  linesMmdJson: { pages: PageLines<MmdLineEntry>[] };
  /** Names of the figures cropped and stored through the sink, in document order. */
  figures: string[];
}

/** Seams for tests and the worker: LibreOffice location, and a hook run before each page. */
export interface PipelineDeps {
  office?: OfficeOptions;
  beforePage?: (page: number) => Promise<void> | void;
  /** Reads scanned pages; given the PDF's path. Without it scanned pages fail honestly. */
  ocr?: (pdfPath: string) => OcrPage;
  /** Called once the pages to process are known, before the first page (progress reporting). */
  onSplit?: (numPages: number, numPagesPdf: number) => Promise<void> | void;
  /** Called after each page with its outcome and its MMD ('' for blank or failed pages). */
  afterPage?: (outcome: PageOutcome, mmd: string) => Promise<void> | void;
  /** The 2-D maths parser for born-digital glyphs. @defaultValue parseLayout */
  parseMath?: ParseMath;
  /** Where figure crops go and how the MMD links them. Without it figures are not looked for. */
  figures?: FigureSink;
}

const OFFICE_TYPES = new Set<DocumentType>(['docx', 'doc', 'pptx', 'odt', 'rtf', 'wpd']);

/** How each non-PDF input type Folio reads becomes a PDF; undefined for types it does not read. */
function converterFor(type: DocumentType): ((path: string, office?: OfficeOptions) => Promise<ConvertedPdf>) | undefined {
  if (type === 'epub') return epubToPdf;
  if (type === 'mobi') return mobiToPdf;
  if (type === 'djvu') return djvuToPdf;
  if (OFFICE_TYPES.has(type)) return (path, office) => officeToPdf(path, type, office);
  return undefined;
}

/**
 * Resolves the input to a PDF path (converting other documents), runs `use`, then cleans up.
 * With `readMaths`, `use` also gets the formulas of an input that holds them as structure
 * (office-maths.ts); counting pages does not need them, so it does not run pandoc.
 */
async function withPdf<T>(path: string, deps: PipelineDeps, use: (pdfPath: string, sourceMaths?: SourceToken[]) => Promise<T>, readMaths = false): Promise<T> {
  const type = await detectFileType(path);
  if (type === 'pdf') return use(path);
  if (type === 'kfx') throw kfxUnsupported();
  const convert = converterFor(type);
  if (convert) {
    const [converted, maths] = await Promise.all([
      convert(path, deps.office),
      readMaths ? readSourceMaths(path, type, deps.office?.timeoutMs ?? OFFICE_TIMEOUT_MS) : undefined,
    ]);
    try {
      return await use(converted.pdfPath, maths);
    } finally {
      await converted.cleanup();
    }
  }
  // An empty file, or one named .pdf that is not one, is a bad PDF rather than an unknown format.
  const { size } = await stat(path);
  if (size === 0) throw new ApiError('pdf_content_type', 'The file is empty (zero bytes)', {}, false);
  if (/\.pdf$/i.test(path)) throw new ApiError('pdf_content_type', 'The file is named .pdf but does not start like a PDF', {}, false);
  throw new ApiError('unsupported_format', 'Input type not supported (expected PDF, DOCX, DOC, PPTX, ODT, RTF, WPD, EPUB, MOBI, AZW, AZW3 or DJVU)', {}, false);
}

/**
 * Page count of a document, for dry-run sampling. Office documents are converted first (slow).
 * pdf.js opens it in a page thread, as for a conversion: the worker's main thread never loads pdf.js.
 */
export async function countPages(path: string, deps: PipelineDeps = {}): Promise<number> {
  return withPdf(path, deps, async (pdfPath) => {
    const doc = await PdfReader.open(pdfPath);
    const pages = doc.numPages;
    await doc.close();
    return pages;
  });
}

/**
 * Converts a local document to MMD plus line data, one page at a time.
 * Whole-document problems throw ApiError (not retryable); page problems are recorded per page.
 */
export async function convertDocument(path: string, opts: DocumentOptions = {}, deps: PipelineDeps = {}): Promise<DocumentResult> {
  return withPdf(
    path,
    deps,
    async (pdfPath, sourceMaths) => {
      const doc = await PdfReader.open(pdfPath);
      try {
        const selected = parsePageRanges(opts.pageRanges, doc.numPages);
        const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
        if (selected.length > maxPages) {
          throw new ApiError(
            'pdf_page_limit_exceeded',
            `The document has ${selected.length} pages to process; the limit is ${maxPages}`,
            { max_limit: maxPages },
            false,
          );
        }
        await deps.onSplit?.(selected.length, doc.numPages);
        const results: PageResult[] = [];
        const running = new RunningLines();
        const figures = deps.figures ? { pdfPath, sink: deps.figures, chemistry: opts.chemistry } : undefined;
        const pageOpts = { wantLinks: opts.includeHyperlinks ?? false, beforePage: deps.beforePage, ocrPage: deps.ocr?.(pdfPath), figures };
        const render = renderOptions(opts);
        const assembly: AssemblyOptions = { alphabetsAllowed: opts.alphabetsAllowed, fullwidthPunctuation: opts.fullwidthPunctuation };
        const placer =
          sourceMaths &&
          new SourceMathsPlacer(
            sourceMaths.map((t) => (t.kind === 'math' ? { ...t, latex: styleLatex(t.latex, render) } : t)),
            { inline: opts.mathInlineDelimiters ?? DEFAULT_INLINE, display: opts.mathDisplayDelimiters ?? DEFAULT_DISPLAY },
          );
        for (const n of selected) {
          const result = await runPage(
            doc,
            n,
            opts.pageTimeoutMs ?? PAGE_TIMEOUT_MS,
            (page) => convertPage(page, opts, { render, assembly }, running, deps.parseMath ?? parseLayout),
            pageOpts,
          );
          if (placer && result.rendered) result.rendered = { ...result.rendered, ...placer.place(result.rendered, n === doc.numPages) };
          results.push(result);
          await deps.afterPage?.(result.outcome, result.rendered?.mmd ?? '');
        }
        return assemble(doc.numPages, results, opts);
      } finally {
        await doc.close();
      }
    },
    true,
  );
}

/**
 * The output options every page's renderer reads, whatever the page is (scanned, born-digital, an
 * office file's); one per document, so section numbers run on from page to page.
 */
function renderOptions(opts: DocumentOptions): RenderOptions {
  return {
    math_inline_delimiters: opts.mathInlineDelimiters,
    math_display_delimiters: opts.mathDisplayDelimiters,
    include_equation_tags: opts.includeEquationTags,
    disable_itemize: opts.disableItemize,
    disable_lstlisting: opts.disableLstlisting,
    rm_spaces: opts.rmSpaces,
    rm_fonts: opts.rmFonts,
    idiomatic_eqn_arrays: opts.idiomaticEqnArrays,
    numbers_default_to_math: opts.numbersDefaultToMath,
    sections: opts.sectionNumbering && new SectionNumbers(opts.sectionNumbering),
  };
}

/** What every page of a document is written with: the renderer's options and the text changes asked for. */
interface PageWriting {
  render: RenderOptions;
  assembly: AssemblyOptions;
}

function convertPage(content: PageContentLines, opts: DocumentOptions, { render, assembly }: PageWriting, running: RunningLines, parse: ParseMath) {
  if (content.scanned) return renderScannedPage(content.scanned, render, content.figures, new PageInfo(opts.includePageInfo ?? false, running), assembly);
  // Tables first: a cell of maths must not seed a display. Then, on born-digital pages, stacked
  // maths lines become one display, read by the 2-D parser.
  const { tables, rest } = findTables(content.lines, content.math?.rules ?? [], content.width, makeLine);
  const changeWords = textLayerWords(assembly);
  // A line whose every word was of an excluded alphabet, and that holds no maths, is left out, as on an image.
  const shown = changeWords ? rest.filter((l) => hasMaths(l) || changeWords(l.text) !== '') : rest;
  const latex = content.math ? pageMathLatex(content.math, parse, opts.includeEquationTags ?? false) : undefined;
  const lines = [...tables, ...(content.math ? groupDisplayMath(shown, content.math, latex?.readRows) : shown)];
  const blocks = layoutPage(lines, content.width, content.height, TEXT_LAYER_READING, opts.includePageInfo ?? false, running);
  const inline = (tex: string) => inlineMath(styleLatex(tex, render), render);
  const words = changeWords ?? ((word: string) => word);
  const prose = (word: string) => numbersAsMath(words(word), render);
  const read: TextLayerRead = {
    // Maths through the 2-D parser on born-digital pages, glyph by glyph where it reads nothing;
    // the request's LaTeX options (4.2 rules 4 and 6) on each formula, as on every other page.
    lineMmd: (line) => lineToMmd(line, content.links, inline, latex?.inlineLatex, prose),
    headingMmd: (line) => lineToMmd(line, content.links, inline, latex?.inlineLatex, words),
    displayLatex: (line) => styleLatex(latex?.displayLatex(line) || lineToLatex(line), render),
  };
  return renderTextLayerPage(blocks, read, render, content.figures);
}

/** What this worker found in a page's glyph lines (displays, maths), as the page layout reads it. */
const TEXT_LAYER_READING: TextLayerReading = {
  display: (line) => (isDisplayLine(line) ? { tag: line.display.tag, standsAlone: standsAlone(line.display) } : undefined),
  isMathOnly,
  isBullet,
};

function assemble(numPagesPdf: number, results: PageResult[], opts: DocumentOptions): DocumentResult {
  let mmd = '';
  const append = (part: string) => {
    if (!part) return mmd.length;
    if (mmd) mmd += '\n\n';
    const at = mmd.length;
    mmd += part;
    return at;
  };
  const lines: PageLines<LineEntry>[] = [];
  const mmdLines: PageLines<MmdLineEntry>[] = [];
  for (const r of results) {
    if (r.rendered) {
      const offset = append(r.rendered.mmd);
      const built = pageLines(r.outcome.page, r.size, r.rendered.lines, r.rendered.pageInfo, offset);
      lines.push(built.lines);
      mmdLines.push(built.mmdLines);
    } else {
      lines.push(emptyPageLines(r.outcome.page, r.size));
      mmdLines.push(emptyPageLines(r.outcome.page, r.size));
    }
    if (opts.includePageBreaks) append(PAGE_BREAK_MARKER);
  }
  const figures = results.flatMap((r) => r.rendered?.figures ?? []);
  return { numPagesPdf, pages: results.map((r) => r.outcome), mmd, linesJson: { pages: lines }, linesMmdJson: { pages: mmdLines }, figures };
}
