import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_TYPES } from '../../core/content-types.js';
import { extensionOfFormat } from '../../core/options/pdf-options.js';
import type { FormatStatus } from '../../core/v3/pdf-store.js';
import { printHtmlPdf } from './convert-html-pdf.js';
import { type LatexBuild, TEX_NAME, compileLatex, writeLatexSource } from './convert-latex.js';
import { type FigureFiles, LINKED_SOURCE_NAME, figurePaths, stageFigures, unfetchableImages } from './convert-figures.js';
import { PANDOC_FROM, SOURCE_NAME, pandoc, zipFiles } from './convert-pandoc.js';
import { renderPageImage } from './convert-page-images.js';
import { FormatError } from './convert-tool.js';
import { writeXlsx } from './convert-xlsx.js';
import { depictStructures } from '../chemistry/depict.js';
import { overlayPdf, readOverlaySource } from './convert-overlay.js';
import type { LineEntry, PageLines } from '../../page/render/lines-json.js';

export type { FigureFiles };

type Put = (ext: string, body: string | Buffer, contentType: string) => Promise<void>;

/** The printed rendering, when page images are asked of a document without a PDF of its own. */
const RENDERED_PDF_NAME = 'rendered-pages.pdf';

/** pandoc's standalone HTML: maths as MathML, a <title> but no visible title block. */
const HTML_ARGS = ['--standalone', '--mathml', '--metadata', 'pagetitle=Document'];

/**
 * What one format is made from: the MMD as sent, the scratch folder, the shared LaTeX build, the
 * staged crops, and a PDF of the document's pages (the source, or else the printed rendering).
 */
interface Sources {
  mmd: string;
  dir: string;
  latex: () => Promise<LatexBuild>;
  figures: string[];
  pagesPdf: () => Promise<string>;
  /** The document's own PDF and its lines.json pages (mmd.overlay.pdf); absent for an MMD conversion. */
  overlay?: { pdf: string; pages: PageLines<LineEntry>[] };
}

/**
 * What each format is, made from the MMD in `dir` (figure links made relative to images/ there):
 * - docx, pptx: pandoc; maths become native Office equations (OMML); figures embedded
 * - html: pandoc with MathML, figures linked as in the MMD (the CDN); md: the MMD itself
 * - html.zip, md.zip, mmd.zip: that one file with relative links, and images/ with the crops
 * - latex.pdf: pandoc's standalone LaTeX with a Unicode preamble, compiled with pdflatex (the
 *   LaTeX rendering); formulas pdflatex cannot set are shown as their source
 * - tex.zip: that document.tex, after the compile, so it compiles as it is, and images/
 * - latex (downloaded as .tex): that document.tex alone
 * - jpg, png: the document's pages stacked in one image (convert-page-images.ts)
 * - pdf: the HTML rendering printed by headless Chromium (convert-html-pdf.ts), figures inlined
 * - xlsx: one sheet per table (convert-xlsx.ts)
 * - mmd.overlay.pdf: the source PDF with the recognised lines as an invisible, searchable layer
 *   (convert-overlay.ts); a /v3/converter conversion or a non-PDF source has no such pages
 */
async function make(ext: string, { mmd, dir, latex, figures, pagesPdf, overlay }: Sources): Promise<Buffer> {
  const images = figurePaths(figures);
  switch (ext) {
    case 'md':
      return Buffer.from(mmd);
    case 'docx':
      return pandoc(dir, 'docx', 'document.docx');
    case 'pptx':
      return pandoc(dir, 'pptx', 'document.pptx');
    case 'html':
      return pandoc(dir, 'html', 'document.linked.html', HTML_ARGS, PANDOC_FROM, LINKED_SOURCE_NAME);
    case 'tex.zip':
      await latex(); // a compile failure still leaves a source worth having
      return zipFiles(dir, 'document.tex.zip', [TEX_NAME, ...images]);
    case 'latex':
      await latex();
      return readFile(join(dir, TEX_NAME));
    case 'jpg':
    case 'png':
      return renderPageImage(await pagesPdf(), dir, ext);
    case 'latex.pdf': {
      const build = await latex();
      if ('failure' in build) throw build.failure;
      return build.pdf;
    }
    case 'pdf':
      return printHtmlPdf(dir, figures);
    case 'xlsx':
      return writeXlsx(dir);
    case 'mmd.zip':
      return zipFiles(dir, 'document.mmd.zip', [SOURCE_NAME, ...images]);
    case 'md.zip':
      await copyFile(join(dir, SOURCE_NAME), join(dir, 'document.md'));
      return zipFiles(dir, 'document.md.zip', ['document.md', ...images]);
    case 'html.zip':
      await pandoc(dir, 'html', 'document.html', HTML_ARGS);
      return zipFiles(dir, 'document.html.zip', ['document.html', ...images]);
    case 'mmd.overlay.pdf':
      if (!overlay) throw new FormatError('unsupported_format', "mmd.overlay.pdf is made over a source PDF's pages; this document has none");
      return overlayPdf(await readOverlaySource(overlay.pdf), overlay.pages);
    default:
      throw new FormatError('unsupported_format', `This build cannot make ${ext}`);
  }
}

/**
 * Writes each requested conversion format beside the MMD and reports its status. A format this
 * build cannot make is error unsupported_format; one whose converter fails (a LaTeX error, a
 * timeout) is error sys_exception; either way error_message says why, and nothing is written
 * for it. Neither fails the document (spec 6.1: a failed conversion does not turn
 * file.completed into file.error). With `figureFiles`, the crops the MMD links are read through
 * it and carried into the formats (convert-figures.ts); without, links stay as they are. Chemical
 * structures (`<smiles>`) get a drawing of their molecule beside the SMILES (chemistry/depict.ts).
 * `mmd` is written by the caller before the conversions: asking for it only reports it completed.
 * Each format is put under its download extension (`latex` as `tex`). `sourcePdf` is the
 * document's own PDF, which the page images show; without one they show the printed rendering.
 * With it and the document's lines.json `lines`, mmd.overlay.pdf is made (convert-overlay.ts).
 */
export async function writeConversions(
  mmd: string,
  formats: Record<string, boolean>,
  put: Put,
  figureFiles?: FigureFiles,
  sourcePdf?: string,
  lines?: PageLines<LineEntry>[],
): Promise<Record<string, FormatStatus>> {
  const status: Record<string, FormatStatus> = {};
  const wanted = Object.entries(formats)
    .filter(([, on]) => on)
    .map(([ext]) => ext);
  if (!wanted.length) return status;
  const dir = await mkdtemp(join(tmpdir(), 'folio-convert-'));
  try {
    const crops = await stageFigures(mmd, dir, figureFiles);
    const structures = await depictStructures(crops.mmd, dir);
    const figures = { mmd: structures.mmd, names: [...crops.names, ...structures.names] };
    const staged = { ...figures, mmd: unfetchableImages(figures.mmd, figures.names) };
    await writeFile(join(dir, SOURCE_NAME), staged.mmd);
    await writeFile(join(dir, LINKED_SOURCE_NAME), mmd);
    let build: Promise<LatexBuild> | undefined;
    // tex.zip and latex.pdf share one source and one compile.
    const latex = () => (build ??= writeLatexSource(staged.mmd, dir).then(() => compileLatex(dir)));
    let printed: Promise<string> | undefined;
    const pagesPdf = async () =>
      sourcePdf ??
      (await (printed ??= printHtmlPdf(dir, staged.names).then(async (pdf) => {
        await writeFile(join(dir, RENDERED_PDF_NAME), pdf);
        return join(dir, RENDERED_PDF_NAME);
      })));
    const overlay = sourcePdf && lines ? { pdf: sourcePdf, pages: lines } : undefined;
    const sources: Sources = { mmd, dir, latex, figures: staged.names, pagesPdf, overlay };
    for (const ext of wanted) {
      try {
        if (ext !== 'mmd') {
          const out = extensionOfFormat(ext);
          await put(out, await make(ext, sources), CONTENT_TYPES[out] ?? 'application/octet-stream');
        }
        status[ext] = { status: 'completed' };
      } catch (err) {
        status[ext] =
          err instanceof FormatError
            ? { status: 'error', error_id: err.errorId, error_message: err.message }
            : { status: 'error', error_id: 'sys_exception', error_message: `Internal error while making ${ext}` };
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return status;
}
