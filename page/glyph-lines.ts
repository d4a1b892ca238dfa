/**
 * The lines of a born-digital page's text layer: glyphs as the PDF draws them, gathered into
 * lines by worker/document/pipeline/text-layer.ts. Coordinates are PDF points in the page's
 * viewport with the origin top-left. The page model's blocks (blocks-model.ts) hold these lines on
 * born-digital pages as they hold recognised lines (model.ts `PageLine`) on images.
 */

export interface Glyph {
  ch: string;
  x: number;
  w: number;
  /** Baseline, measured down from the top of the page. */
  base: number;
  size: number;
  font: string;
  bold: boolean;
  mathFont: boolean;
  /** Drawn in a text font's italic. */
  italic?: boolean;
}

/** A region of the page in PDF points, origin top-left. */
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where a born-digital page paints pictures and vector shapes (worker/document/pipeline/page-graphics.ts reads them). */
export interface PageGraphics {
  /** Raster images: each covers the unit square under the transform in force when it is painted. */
  images: Region[];
  /** Every painted path (stroked, filled or both), strokes widened by half the line width. */
  paths: PathBox[];
}

export interface PathBox extends Region {
  /** A stroked straight segment or a filled bar no thicker than THIN_PT (page-graphics.ts): table rules, fraction bars, underlines, drawn lines. */
  thin: boolean;
}

export interface TextLine {
  glyphs: Glyph[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Baseline and size of the line's dominant glyphs (superscripts and subscripts excluded). */
  base: number;
  size: number;
  bold: boolean;
  /** Plain text with spaces, for classification. */
  text: string;
}
