import type { PageLine, PageRecognition } from '../../../page/model.js';
import { recognisedFurniture, RunningLines } from '../../../page/processors/furniture.js';
import type { FigureRef } from '../../../page/blocks-model.js';
import { type AssembledPage, assemblePage, type AssemblyOptions, pageBlocks, uprightOf } from '../../../page/assemble.js';
import { imagePage, recognisedLines } from '../../../page/render/image-page.js';
import type { RenderOptions } from '../../../page/render/options.js';
import { type RenderedBlocks, renderBlocks } from '../../../page/render/page-mmd.js';
import { documentPage, type RenderedPage } from '../../../page/render/text-layer-page.js';
import type { TextLine } from './text-layer.js';

/**
 * A scanned page is a page image: the inference worker reads it exactly as it reads an image sent
 * to /v3/text (text lines, maths regions read by the maths engine, inline maths), and its MMD is
 * assembled and rendered by the same code (page/assemble.ts, page/render/image-page.ts). Here it only meets the document: its
 * lines get PDF points for lines.json and figure finding, and figures cropped from it take their
 * place among its blocks.
 */

export interface ScannedPage {
  read: PageRecognition;
  /** PDF points per pixel of the page image. */
  scale: number;
}

const owners = new WeakMap<TextLine, PageLine>();

/** The recognised lines as text lines in PDF points (no glyphs), for figure finding and lines.json. */
export function scannedLines(page: ScannedPage): TextLine[] {
  return page.read.lines.map((l) => {
    const s = page.scale;
    const line: TextLine = {
      glyphs: [],
      x0: l.box.x * s,
      x1: (l.box.x + l.box.width) * s,
      top: l.box.y * s,
      bottom: (l.box.y + l.box.height) * s,
      base: (l.box.y + 0.8 * l.box.height) * s,
      size: 0.8 * l.box.height * s,
      bold: false,
      text: l.text,
    };
    owners.set(line, l);
    return line;
  });
}

/** The page keeping only the recognised lines of `kept` (figure finding takes the lines inside a figure). */
export function keepLines(page: ScannedPage, kept: TextLine[]): ScannedPage {
  const keep = new Set(kept.map((l) => owners.get(l)));
  return { ...page, read: { ...page.read, lines: page.read.lines.filter((l) => keep.has(l)) } };
}

/**
 * The page's MMD and its lines with the MMD each produced, by the page renderer
 * (page/render/page-mmd.ts) as for an image sent to /v3/text; lines.json gets their regions in
 * PDF points. Each figure is written before the first block below its top that shares its
 * columns, as on a born-digital page, so a caption under a figure follows it. `assembly`: the
 * request's alphabets_allowed and fullwidth_punctuation, applied as for an image.
 */
export function renderScannedPage(
  page: ScannedPage,
  opts: RenderOptions,
  figures: FigureRef[] = [],
  furniture = new PageInfo(),
  assembly: AssemblyOptions = {},
): RenderedPage {
  const info = furniture.of(page);
  const read = assemblePage(info.length ? { ...page.read, lines: page.read.lines.filter((l) => !info.includes(l)) } : page.read, assembly);
  const points = scannedLines({ ...page, read });
  const inPoints = new Map(read.lines.map((l, i) => [l, points[i]!]));
  const s = page.scale;
  const upright = uprightOf(read);
  const rendered = read.layout.single
    ? oneEquation(read, opts, figures)
    : renderBlocks(pageBlocks(read), { ...recognisedLines(opts, upright), region: (l) => scaled(upright(l), s) }, opts, figures);
  const pageInfo = scannedLines({ ...page, read: { ...page.read, lines: info } });
  return { ...documentPage(rendered, (l) => inPoints.get(l)!), pageInfo };
}

/** A box in pixels of the upright page as a region in PDF points. */
const scaled = (b: PageLine['box'], s: number) => ({ x0: b.x * s, x1: (b.x + b.width) * s, top: b.y * s });

/** A page that is one equation: written as that equation inline (image-page.ts) on its one line, its figures after it. */
function oneEquation(read: AssembledPage, opts: RenderOptions, figures: FigureRef[]): RenderedBlocks<PageLine> {
  const mmd = imagePage(read, opts).mmd;
  const rendered: RenderedBlocks<PageLine> = {
    mmd,
    lines: [{ line: read.lines[0]!, type: 'math', mmd, start: 0, end: mmd.length }],
    figures: [],
    pageInfo: [],
  };
  for (const figure of figures) {
    rendered.mmd += '\n\n';
    rendered.figures.push({ figure, mmd: figure.mmd, start: rendered.mmd.length, end: rendered.mmd.length + figure.mmd.length });
    rendered.mmd += figure.mmd;
  }
  return rendered;
}

/**
 * The running headers, footers and page numbers of a document's scanned pages, told as on
 * born-digital pages (page/processors/furniture.ts) from the lines' upright boxes, in pixels:
 * a text line's box height stands for the body size. Lines seen in a page's bands are remembered
 * for the pages after. With `keep` (include_page_info) nothing is furniture.
 */
export class PageInfo {
  constructor(
    private readonly keep = false,
    private readonly running = new RunningLines(),
  ) {}

  of(page: ScannedPage): PageLine[] {
    return recognisedFurniture(page.read, this.running, this.keep);
  }
}
