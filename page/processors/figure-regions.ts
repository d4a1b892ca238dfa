import type { PageGraphics, Region as Box, TextLine } from '../glyph-lines.js';
import { CAPTION } from './text-layer-blocks.js';

/**
 * Which parts of a page are figures, from candidate boxes (painted images, clusters of vector
 * paths, or ink blobs of a scanned page) and the page's text lines. Conservative on purpose: a
 * table, a framed paragraph, a fraction bar or an underline must stay text, so a candidate needs
 * a real size and little text inside; rule-only drawings need even less text. Text lines inside
 * an accepted figure (axis labels, drawing glyphs) go with it; captions ("Figure 2: …") never do.
 * All boxes are PDF points, origin top-left.
 */

export interface FigureCandidate extends Box {
  /** Made of thin strokes only (lines, frames, rules): judged more strictly against text. */
  ruleOnly: boolean;
}

/** Smallest figure, in points: smaller pictures are icons, bullets or logos. */
export const MIN_FIGURE_WIDTH_PT = 40;
export const MIN_FIGURE_HEIGHT_PT = 30;
/** Shapes closer than this (points) belong to one drawing. */
const CLUSTER_GAP_PT = 6;
/** Share of a candidate's area text may cover: rule-only candidates (tables, frames) and the rest. */
const MAX_TEXT_COVER_RULES = 0.12;
const MAX_TEXT_COVER = 0.35;
/** A picture covering this share of the page is its background (a scan under an OCR text layer). */
const MAX_PAGE_SHARE = 0.85;

const area = (b: Box) => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });
const near = (a: Box, b: Box, gap: number) => a.x0 <= b.x1 + gap && b.x0 <= a.x1 + gap && a.y0 <= b.y1 + gap && b.y0 <= a.y1 + gap;
const lineBox = (l: TextLine): Box => ({ x0: l.x0, y0: l.top, x1: l.x1, y1: l.bottom });
function intersection(a: Box, b: Box): number {
  return area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
}

/** Greedy merge of boxes that touch within `gap`, until no two merged boxes touch. */
export function clusterBoxes<B extends Box & { ruleOnly: boolean }>(boxes: B[], gap: number): FigureCandidate[] {
  let clusters: FigureCandidate[] = boxes.map((b) => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, ruleOnly: b.ruleOnly }));
  for (let merged = true; merged;) {
    merged = false;
    const next: FigureCandidate[] = [];
    for (const c of clusters.sort((a, b) => a.y0 - b.y0)) {
      const into = next.find((n) => near(n, c, gap));
      if (!into) {
        next.push({ ...c });
        continue;
      }
      Object.assign(into, union(into, c), { ruleOnly: into.ruleOnly && c.ruleOnly });
      merged = true;
    }
    clusters = next;
  }
  return clusters;
}

/**
 * LaTeX's picture mode draws slanted lines and circles with glyphs of these fonts: drawing, not text.
 * (The subset prefix, ABCDEF+, comes before the name.)
 */
const PICTURE_FONT = /(^|\+)(line|linew|lcircle|lcirclew)10$/i;
export const isPictureLine = (l: TextLine) => l.glyphs.every((g) => g.ch === ' ' || PICTURE_FONT.test(g.font));

/** Candidates of a born-digital page: images, and clusters of painted paths and picture-font glyphs. */
export function bornDigitalCandidates(g: PageGraphics, width: number, height: number, lines: TextLine[]): FigureCandidate[] {
  const page = { x0: 0, y0: 0, x1: width, y1: height };
  const pageArea = width * height;
  const clip = (b: Box): Box => ({ x0: Math.max(0, b.x0), y0: Math.max(0, b.y0), x1: Math.min(width, b.x1), y1: Math.min(height, b.y1) });
  const images = g.images
    .map(clip)
    .filter((b) => area(b) > 0 && area(b) < MAX_PAGE_SHARE * pageArea)
    .map((b) => ({ ...b, ruleOnly: false }));
  // Page frames and coloured backgrounds are not drawings.
  const paths = g.paths.filter((p) => intersection(p, page) > 0 && area(clip(p)) < 0.5 * pageArea).map((p) => ({ ...clip(p), ruleOnly: p.thin }));
  const strokes = lines.filter(isPictureLine).map((l) => ({ ...lineBox(l), ruleOnly: true }));
  return clusterBoxes([...images, ...paths, ...strokes], CLUSTER_GAP_PT);
}

/** What is left of a page once its figures are taken out: the figures, and the lines that stay text. */
export interface PageFigures {
  figures: Box[];
  lines: TextLine[];
}

/** Accepts the candidates that are figures and hands each the text lines that belong to it. */
export function acceptFigures(candidates: FigureCandidate[], lines: TextLine[]): PageFigures {
  const figures: Box[] = [];
  for (const c of candidates) {
    if (c.x1 - c.x0 < MIN_FIGURE_WIDTH_PT || c.y1 - c.y0 < MIN_FIGURE_HEIGHT_PT) continue;
    const covered = lines.reduce((s, l) => s + (isPictureLine(l) ? 0 : intersection(lineBox(l), c)), 0) / area(c);
    if (covered > (c.ruleOnly ? MAX_TEXT_COVER_RULES : MAX_TEXT_COVER)) continue;
    figures.push({ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1 });
  }
  if (!figures.length) return { figures, lines };
  const kept: TextLine[] = [];
  for (const line of lines) {
    const owner = CAPTION.test(line.text) ? undefined : figures.find((f) => belongsTo(line, f));
    if (owner) Object.assign(owner, union(owner, lineBox(line)));
    else kept.push(line);
  }
  return { figures: mergeOverlapping(figures), lines: kept };
}

/**
 * A line is part of a figure when its middle lies inside it, or when it is a short label hugging
 * the figure's edge (tick labels under an axis): no further than half its size away, and no wider
 * than half the figure.
 */
function belongsTo(line: TextLine, f: Box): boolean {
  const cx = (line.x0 + line.x1) / 2;
  const cy = (line.top + line.bottom) / 2;
  if (cx > f.x0 && cx < f.x1 && cy > f.y0 && cy < f.y1) return true;
  return near(lineBox(line), f, 0.5 * line.size) && line.x1 - line.x0 <= 0.5 * (f.x1 - f.x0) && line.x0 >= f.x0 - line.size && line.x1 <= f.x1 + line.size;
}

function mergeOverlapping(boxes: Box[]): Box[] {
  return clusterBoxes(
    boxes.map((b) => ({ ...b, ruleOnly: false })),
    0,
  ).map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }));
}
