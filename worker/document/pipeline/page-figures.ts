import type { FigureRef } from '../../../page/blocks-model.js';
import type { ChemistryOptions } from '../../../core/chemistry.js';
import { CHEMISTRY_DPI, figureStructures, MIN_OSRA_WALL_MS, structuresMmd } from '../../chemistry/figure-structures.js';
import { cropPage, type PageImage, pixelRegion, renderPage, renderRegion } from './figure-crop.js';
import { FIGURE_DPI, figureName, type PixelRegion } from '../../../page/figure-links.js';
import { acceptFigures, bornDigitalCandidates } from '../../../page/processors/figure-regions.js';
import { scannedCandidates } from './figure-scan.js';
import type { PageGraphics } from './page-graphics.js';
import type { TextLine } from './text-layer.js';

/** One page's figures: found, cropped, stored through the sink, and linked for the MMD. */

/** Where crops go and how the MMD refers to them; the caller (v3/pdf, private cloud) decides both. */
export interface FigureSink {
  /** Crop names start with this (the pdf_id, or a private-cloud document id): `<prefix>-<page>-<n>`. */
  prefix: string;
  /** Stores one crop (JPEG). */
  save(name: string, jpeg: Buffer): Promise<void>;
  /** The address the MMD gives the crop: a CDN URL, or a path relative to the MMD. */
  link(name: string, region: PixelRegion): string;
}

export interface PageFigureInput {
  pdfPath: string;
  page: number;
  width: number;
  height: number;
  lines: TextLine[];
  /** Painted images and paths of a born-digital page; absent for a scanned page, which is rendered instead. */
  graphics?: PageGraphics;
  sink: FigureSink;
  /** Structure diagrams among the figures are written as SMILES (include_smiles). @defaultValue not looked for */
  chemistry?: ChemistryOptions;
  /** When (Date.now() ms) reading figures as chemistry must end; figures left then stay figures. @defaultValue none */
  chemistryDeadline?: number;
  /** The page's clock: renders stop when it runs out. @defaultValue each render has its own limit */
  signal?: AbortSignal;
}

/** Finds and stores the page's figures; returns them in top-to-bottom order and the lines left as text. */
export async function extractFigures(p: PageFigureInput): Promise<{ figures: FigureRef[]; lines: TextLine[] }> {
  const image = p.graphics ? undefined : await renderPage(p.pdfPath, p.page, p.signal);
  const candidates = p.graphics ? bornDigitalCandidates(p.graphics, p.width, p.height, p.lines) : scannedCandidates(image!.gray, p.lines);
  const found = acceptFigures(candidates, p.lines);
  const figures: FigureRef[] = [];
  for (const [i, box] of found.figures.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0).entries()) {
    const name = figureName(p.sink.prefix, p.page, i + 1);
    const region = pixelRegion(box, p.width, p.height);
    await p.sink.save(name, image ? await cropPage(image, region) : await renderRegion(p.pdfPath, p.page, region, { signal: p.signal }));
    const link = p.sink.link(name, region);
    // Chemistry last, so a figure it is given up on at the deadline has nothing left to do.
    const chemistry = p.chemistry;
    const structures = chemistry?.smiles
      ? await beforeDeadline(p.chemistryDeadline, async () => figureStructures(await chemistryPixels(p, region, image), chemistry, p.chemistryDeadline))
      : [];
    figures.push({ name, box, mmd: structures.length ? structuresMmd(structures, p.chemistry!, link) : `![](${link})` });
  }
  return { figures, lines: found.lines };
}

/**
 * What `work` finds, or nothing when the deadline comes first: the page goes on at once, and the
 * work (rendering the figure again, then OSRA) finds the deadline passed and starts nothing more.
 */
async function beforeDeadline<T>(deadline: number | undefined, work: () => Promise<T[]>): Promise<T[]> {
  if (deadline === undefined) return work();
  const left = deadline - Date.now();
  if (left < MIN_OSRA_WALL_MS) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T[]>((resolve) => (timer = setTimeout(() => resolve([]), left)));
  const found = work();
  found.catch(() => undefined);
  try {
    return await Promise.race([found, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A figure's pixels for OSRA: a born-digital region rendered again at CHEMISTRY_DPI, a scanned one cut from its page. */
function chemistryPixels(p: PageFigureInput, region: PixelRegion, image: PageImage | undefined): Promise<Buffer> {
  if (image) return cropPage(image, region, 'png');
  const k = CHEMISTRY_DPI / FIGURE_DPI;
  const scaled = {
    top_left_x: Math.floor(region.top_left_x * k),
    top_left_y: Math.floor(region.top_left_y * k),
    width: Math.ceil(region.width * k),
    height: Math.ceil(region.height * k),
  };
  return renderRegion(p.pdfPath, p.page, scaled, { png: true, dpi: CHEMISTRY_DPI, signal: p.signal });
}
