import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import type { Stroke } from '../../worker/engine/math/types.js';

/**
 * Real pen strokes of single symbols from the shared data sets, labelled with the stroke
 * classifier's classes (SYMBOL_CLASSES):
 * - Detexify (ODbL 1.0): LaTeX symbols drawn with a mouse or finger, about 50 per class; `fold` is
 *   sha1(id) mod 10. Each sample is its own "writer" (Detexify keeps no writer ids).
 * - UNIPEN train_r01_v07 (training only, never redistributed): digits, letters and
 *   `+ = ( ) < > / …` from tablets; `fold` is writer-disjoint.
 * Fold 0 of both is held out for evaluation (models/eval/strokes-real-*); training uses 1–9.
 * Coordinates come out with y down, scaled to physical proportions, top-left at (0, 0).
 */

export const DATASETS_DIR = process.env.FOLIO_DATASETS ?? '/work/shared/datasets';
export const HELD_OUT_FOLD = 0;

export interface RealSample {
  /** Index into SYMBOL_CLASSES. */
  label: number;
  strokes: Stroke[];
  fold: number;
  source: 'detexify' | 'unipen';
  /** Writer pseudonym (UNIPEN) or sample id (Detexify). */
  writer: string;
}

/** Detexify commands that draw one of our classes under another name. */
const DETEXIFY_ALIASES: Record<string, string> = {
  '\\mathds{R}': '\\mathbb{R}',
  '\\mathds{N}': '\\mathbb{N}',
  '\\mathds{Z}': '\\mathbb{Z}',
  '\\mathds{Q}': '\\mathbb{Q}',
  '\\mathds{C}': '\\mathbb{C}',
  '\\textless': '<',
  '\\textgreater': '>',
  '\\textbar': '|',
  '\\textvertline': '|',
  '\\mid': '|',
  '\\parallel': '\\|',
  '\\textdoublevertline': '\\|',
  '\\ast': '*',
  '\\textasteriskcentered': '*',
  '\\surd': '\\sqrt',
  '\\sqrt{}': '\\sqrt',
  '\\textsurd': '\\sqrt',
  '\\varnothing': '\\emptyset',
  '\\cdot': '.',
  '\\cdotp': '.',
  '\\ldotp': '.',
  '\\colon': ':',
  '\\textdiv': '\\div',
  '\\texttimes': '\\times',
  '\\textpm': '\\pm',
  '\\textrightarrow': '\\rightarrow',
  '\\textleftarrow': '\\leftarrow',
  '\\textlangle': '\\langle',
  '\\textrangle': '\\rangle',
  '\\textbraceleft': '\\{',
  '\\textbraceright': '\\}',
  '\\textasciicircum': '\\hat',
  '\\textasciitilde': '\\tilde',
  '\\to': '\\rightarrow',
};
/** UNIPEN labels that are not classes: bars are RULE by geometry; the rest are not maths symbols we read. */
const UNIPEN_SKIP = new Set(['-', '\\_', '\\wedge', '\\#', '\\$', '\\&', '@', '\\backslash']);

const classIndex = new Map(SYMBOL_CLASSES.map((c, i) => [c, i]));

async function* jsonLines(path: string): AsyncGenerator<Record<string, unknown>> {
  const input = path.endsWith('.gz') ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line) yield JSON.parse(line) as Record<string, unknown>;
}

/** Points as strokes, y down, scaled by (sx, sy) and moved so the ink starts at (0, 0). */
function toStrokes(raw: number[][][], sx = 1, sy = 1): Stroke[] {
  const strokes = raw.map((s) => ({ x: s.map((p) => p[0] * sx), y: s.map((p) => p[1] * sy) }));
  const x0 = Math.min(...strokes.flatMap((s) => s.x));
  const y0 = Math.min(...strokes.flatMap((s) => s.y));
  return strokes.map((s) => ({ x: s.x.map((v) => v - x0), y: s.y.map((v) => v - y0) }));
}

export function datasetsPresent(dir = DATASETS_DIR): boolean {
  return existsSync(join(dir, 'detexify-strokes/samples.jsonl')) && existsSync(join(dir, 'unipen-chars/samples.jsonl.gz'));
}

/** Every usable sample of both sets, optionally only some folds. */
export async function readRealSamples(opts: { folds?: (fold: number) => boolean; dir?: string } = {}): Promise<RealSample[]> {
  const dir = opts.dir ?? DATASETS_DIR;
  const keepFold = opts.folds ?? (() => true);
  const out: RealSample[] = [];
  for await (const row of jsonLines(join(dir, 'detexify-strokes/samples.jsonl'))) {
    const name = String(row.label);
    const label = classIndex.get(DETEXIFY_ALIASES[name] ?? name);
    const fold = Number(row.fold);
    if (label === undefined || !keepFold(fold)) continue;
    out.push({ label, strokes: toStrokes(row.strokes as number[][][]), fold, source: 'detexify', writer: String(row.id) });
  }
  for await (const row of jsonLines(join(dir, 'unipen-chars/samples.jsonl.gz'))) {
    const name = String(row.label);
    const label = classIndex.get(name);
    const fold = Number(row.fold);
    if (UNIPEN_SKIP.has(name) || label === undefined || !keepFold(fold)) continue;
    const [px, py] = row.ppi as [number, number];
    out.push({ label, strokes: toStrokes(row.strokes as number[][][], 1 / px, 1 / py), fold, source: 'unipen', writer: String(row.writer) });
  }
  return out;
}
