import { boxToUpright } from '../geometry.js';
import type { PageLine, PageRecognition } from '../model.js';
import { type Block, textBlocks } from '../processors/blocks.js';
import { columnOrder } from '../processors/columns.js';
import { punctuationWidth } from '../processors/fullwidth.js';
import { type Alphabet, withoutAlphabets } from '../processors/alphabets.js';
import { mapRecognitionText } from '../processors/text-map.js';
import { linesToMmd } from './mmd.js';
import type { RenderOptions } from './options.js';

export interface ImagePageOptions extends RenderOptions {
  /** 4.2 fullwidth_punctuation: true, false, or null/absent for the form that suits each line. */
  fullwidth_punctuation?: boolean | null;
}

export interface ImagePage {
  /** The recognition with the requested text changes applied, its lines in reading order. */
  read: PageRecognition;
  /** A line's box in the upright image. */
  upright: (l: PageLine) => PageLine['box'];
  blocks: Block[];
  /** The whole image is one equation: its MMD is that equation in inline delimiters. */
  single: boolean;
  mmd: string;
}

/**
 * A recognised page image as MMD: the one assembly of an image, whether it came to `/v3/text` or
 * is a scanned page of a document. Alphabets left out and punctuation widths applied, lines put
 * in reading order (two columns of prose column by column), then blocks (paragraphs, lists,
 * code, tables) rendered by the MMD renderer.
 */
export function imagePage(recognition: PageRecognition, opts: ImagePageOptions, excluded: Alphabet[] = []): ImagePage {
  const changed = mapRecognitionText(withoutAlphabets(recognition, excluded), (t, line) => punctuationWidth(t, opts.fullwidth_punctuation, line.text));
  const rotation = recognition.rotation ?? 0;
  const [uw, uh] = Math.abs(rotation) === 90 ? [recognition.height, recognition.width] : [recognition.width, recognition.height];
  const upright = (l: PageLine) => boxToUpright(l.box, rotation, uw, uh);
  const read = { ...changed, lines: columnOrder(changed.lines, upright) };
  const single = read.lines.length === 1 && read.lines[0]!.kind === 'math' && read.formula !== undefined;
  const blocks = textBlocks(read.lines, upright);
  return { read, upright, blocks, single, mmd: linesToMmd(read.lines, opts, single, upright, blocks) };
}
