import type { PageLine, PageRecognition } from '../../../page/model.js';
import { boxToUpright } from '../../../page/geometry.js';
import { pageFurniture, RunningLines } from '../../../page/processors/furniture.js';
import { lineTypes } from '../../../page/processors/blocks.js';
import { blockLines, type FigureRef } from '../../../page/blocks-model.js';
import { assemblePage } from '../../../page/assemble.js';
import { imagePage, linesToMmd } from '../../../page/render/image-page.js';
import { lineMmd } from '../../../page/render/mmd.js';
import type { RenderOptions } from '../../../page/render/options.js';
import type { LineType, RenderedLine } from '../../../page/render/page-mmd.js';
import { figureLine, type RenderedPage } from '../../../page/render/text-layer-page.js';
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

const LINE_TYPES: Record<string, LineType> = {
  math: 'math',
  table: 'table',
  list_item: 'list_item',
  section_header: 'section_header',
  code: 'text',
  text: 'text',
};

/**
 * The page's MMD and its lines with the MMD each produced (found in order in the page's MMD).
 * Each figure is written before the first block below its top that shares its columns, as on a
 * born-digital page (page/render/page-mmd.ts), so a caption under a figure follows it.
 */
export function renderScannedPage(page: ScannedPage, opts: RenderOptions, figures: FigureRef[] = [], furniture = new PageInfo()): RenderedPage {
  const info = furniture.of(page);
  const body = info.length ? { ...page, read: { ...page.read, lines: page.read.lines.filter((l) => !info.includes(l)) } } : page;
  const read = assemblePage(body.read);
  const { single } = read.layout;
  const { blocks, upright, mmd: whole } = imagePage(read, opts);
  const s = page.scale;
  const pieces = single
    ? [{ mmd: whole, top: 0, x0: 0, x1: Infinity }]
    : blocks.map((b) => {
        const boxes = blockLines(b).map((l) => upright(l));
        return {
          mmd: linesToMmd(read.lines, opts, false, upright, [b]),
          top: Math.min(...boxes.map((x) => x.y)) * s,
          x0: Math.min(...boxes.map((x) => x.x)) * s,
          x1: Math.max(...boxes.map((x) => x.x + x.width)) * s,
        };
      });
  const before = pieces.map(() => [] as FigureRef[]).concat([[]]);
  for (const f of figures) {
    const at = pieces.findIndex((p) => p.top >= f.box.y0 && p.x0 < f.box.x1 && p.x1 > f.box.x0);
    before[at < 0 ? pieces.length : at]!.push(f);
  }
  const types = lineTypes(blocks);
  const lines = scannedLines({ ...page, read });
  const rendered: RenderedLine<TextLine>[] = [];
  let mmd = '';
  const emitFigures = (list: FigureRef[]) => {
    for (const f of list) {
      if (mmd) mmd += '\n\n';
      rendered.push({ line: figureLine(f), type: 'image', mmd: f.mmd, start: mmd.length, end: mmd.length + f.mmd.length });
      mmd += f.mmd;
    }
  };
  pieces.forEach((p, i) => {
    emitFigures(before[i]!);
    if (mmd) mmd += '\n\n';
    mmd += p.mmd;
  });
  emitFigures(before[pieces.length]!);
  let cursor = 0;
  read.lines.forEach((l, i) => {
    // A page that is one equation is written as that equation inline (image-page.ts), not as its display line.
    const own = single ? whole : lineMmd(l, opts);
    const at = own ? mmd.indexOf(own, cursor) : -1;
    const [start, end] = at < 0 ? [cursor, cursor] : [at, at + own.length];
    cursor = end;
    rendered.push({ line: lines[i]!, type: LINE_TYPES[types.get(l) ?? (l.math ? 'math' : 'text')] ?? 'text', mmd: mmd.slice(start, end), start, end });
  });
  rendered.sort((a, b) => a.start - b.start);
  return { mmd, lines: rendered, pageInfo: scannedLines({ ...page, read: { ...page.read, lines: info } }), figures: before.flat().map((f) => f.name) };
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
    const read = page.read;
    if (read.lines.length < 2) return [];
    const rotation = read.rotation ?? 0;
    const [width, height] = Math.abs(rotation) === 90 ? [read.height, read.width] : [read.width, read.height];
    const lines = read.lines.map((line) => {
      const box = boxToUpright(line.box, rotation, width, height);
      // A page number the text model missed is still read by the maths engine.
      return { line, top: box.y, bottom: box.y + box.height, height: box.height, text: line.text || (line.math?.latex ?? '') };
    });
    const heights = lines
      .filter((l) => l.line.kind !== 'math')
      .map((l) => l.height)
      .sort((a, b) => a - b);
    const body = heights[Math.floor(heights.length / 2)] ?? 0;
    return pageFurniture(lines, height, body, this.running, this.keep).map((l) => l.line);
  }
}
