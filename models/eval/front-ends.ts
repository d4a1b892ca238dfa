import { existsSync } from 'node:fs';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Box, GrayImage, MathResult, MathSymbol } from '../../worker/engine/math/types.js';

/**
 * Loads the recogniser's parts the evaluation calls, by the names their contract gives them. They
 * are built alongside this harness, so a part that is not there yet comes back as a reason the
 * report prints ("not available: …"), while a part that is there but fails to load throws here:
 * an import error is a bug to see, not a row to skip.
 */

export interface PdfPageMath {
  width: number;
  height: number;
}

export interface Parts {
  normaliseLatex: (latex: string) => string;
  parseLayout: (symbols: MathSymbol[]) => MathResult | Promise<MathResult>;
}

export interface PdfFrontEnd {
  /** Reads one page's glyphs and rules (worker/engine/math/pdf). */
  readPdfMath: (page: PDFPageProxy) => Promise<PdfPageMath>;
  /** The symbols whose ink lies in a region of that page, in page points, y down. */
  symbolsInRegion: (page: PdfPageMath, region: Box) => MathSymbol[];
}

export interface ImageFrontEnd {
  symbolsFromImage: (image: GrayImage) => Promise<MathSymbol[]>;
}

export type Loaded<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface LoadedParts {
  /** The parser and the normaliser: without them no front end can be scored. */
  core: Loaded<Parts>;
  pdf: Loaded<PdfFrontEnd>;
  image: Loaded<ImageFrontEnd>;
}

const MATH_DIR = new URL('../../worker/engine/math/', import.meta.url);

/** Imports the first of `files` that exists (a folder's index.ts before the file that defines the export). */
async function load<T>(files: readonly string[], names: readonly string[]): Promise<Loaded<T>> {
  const file = files.find((f) => existsSync(new URL(f, MATH_DIR)));
  if (file === undefined) return { ok: false, reason: `${files.map((f) => `worker/engine/math/${f}`).join(' / ')} does not exist yet` };
  const url = new URL(file, MATH_DIR);
  const shown = `worker/engine/math/${file}`;
  const module = (await import(url.href)) as Record<string, unknown>;
  const missing = names.filter((name) => typeof module[name] !== 'function');
  if (missing.length > 0) return { ok: false, reason: `${shown} does not export ${missing.map((n) => `${n}()`).join(', ')}` };
  return { ok: true, value: module as T };
}

export async function loadParts(): Promise<LoadedParts> {
  const normaliser = await load<Pick<Parts, 'normaliseLatex'>>(['latex-normalise.ts'], ['normaliseLatex']);
  const parser = await load<Pick<Parts, 'parseLayout'>>(['layout/index.ts'], ['parseLayout']);
  const core: Loaded<Parts> =
    normaliser.ok && parser.ok
      ? { ok: true, value: { ...normaliser.value, ...parser.value } }
      : { ok: false, reason: [normaliser, parser].flatMap((p) => (p.ok ? [] : [p.reason])).join('; ') };
  return {
    core,
    pdf: await load<PdfFrontEnd>(['pdf/index.ts'], ['readPdfMath', 'symbolsInRegion']),
    image: await load<ImageFrontEnd>(['image/index.ts', 'image/symbols-from-image.ts'], ['symbolsFromImage']),
  };
}
