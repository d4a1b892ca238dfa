import { type AssembledPage, pageBlocks, uprightOf } from '../assemble.js';
import type { PageLine } from '../model.js';
import type { Block } from '../processors/blocks.js';
import { linesToMmd } from './mmd.js';
import type { RenderOptions } from './options.js';

export interface ImagePage {
  /** A line's box in the upright image. */
  upright: (l: PageLine) => PageLine['box'];
  blocks: Block[];
  mmd: string;
}

/**
 * An assembled page image (page/assemble.ts) as MMD: the one rendering of an image, whether it
 * came to `/v3/text` or is a scanned page of a document. Its blocks (headings, paragraphs, lists,
 * code, tables) are rendered by the MMD renderer with the request's output options.
 */
export function imagePage(page: AssembledPage, opts: RenderOptions): ImagePage {
  const upright = uprightOf(page);
  const blocks = pageBlocks(page);
  return { upright, blocks, mmd: linesToMmd(page.lines, opts, page.layout.single, upright, blocks) };
}
