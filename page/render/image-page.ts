import { type AssembledPage, pageBlocks, uprightOf } from '../assemble.js';
import type { PageLine } from '../model.js';
import { type Block, textBlocks, withoutBullet } from '../processors/blocks.js';
import { BULLET_MARKER } from '../blocks-model.js';
import { codeLineText } from '../processors/code-lines.js';
import { headingText } from '../processors/headings.js';
import { withoutNumber } from '../processors/lists.js';
import { inlineMath, lineMmd, styleLatex } from './mmd.js';
import type { RenderOptions } from './options.js';
import { type LineReader, renderBlocks } from './page-mmd.js';

export interface ImagePage {
  /** A line's box in the upright image. */
  upright: (l: PageLine) => PageLine['box'];
  blocks: Block[];
  mmd: string;
}

/**
 * An assembled page image (page/assemble.ts) as MMD: the one rendering of an image, whether it
 * came to `/v3/text` or is a scanned page of a document. Its blocks (headings, paragraphs, lists,
 * code, tables) are rendered by the page renderer (page-mmd.ts) with the request's output options.
 */
export function imagePage(page: AssembledPage, opts: RenderOptions): ImagePage {
  const upright = uprightOf(page);
  const blocks = pageBlocks(page);
  return { upright, blocks, mmd: linesToMmd(page.lines, opts, page.layout.single, upright, blocks) };
}

/**
 * The MMD of recognised lines in reading order. When the whole image is one equation (`single`),
 * its text is that equation in inline delimiters, as the hosted service answers a cropped formula.
 * `upright` gives a line's box in the upright image (paragraphs and lists are found from them);
 * `blocks` are those textBlocks finds, when the caller has them already.
 */
export function linesToMmd(
  lines: PageLine[],
  opts: RenderOptions,
  single: boolean,
  upright: (l: PageLine) => PageLine['box'] = (l) => l.box,
  blocks = textBlocks(lines, upright),
): string {
  if (single && lines[0]?.math) return inlineMath(styleLatex(lines[0].math.latex, opts), opts);
  return renderBlocks(blocks, recognisedLines(opts, upright), opts).mmd;
}

/**
 * How the page renderer reads recognised lines: as read (a paragraph's lines one an MMD line,
 * hyphens kept), maths lines as displays in their paragraph, the bullet as read kept before a
 * list item with disable_itemize (a number as read, too), a heading's spacing made single (a text model may read a wide
 * gap after a section number as two spaces), code lines indented by the monospace pitch.
 */
export function recognisedLines(opts: RenderOptions, upright: (l: PageLine) => PageLine['box']): LineReader<PageLine> {
  return {
    keepsBreaks: true,
    text: (l) => l.text,
    mmd: (l) => lineMmd(l, opts),
    isDisplay: (l) => l.kind === 'math' && l.math !== undefined && !l.chemistry,
    displayLatex: (l) => styleLatex(l.math?.latex ?? l.text, opts),
    // A section number stays as printed (numbers_default_to_math is for prose).
    headingMmd: (l) => (l.kind === 'math' ? headingText(l) : lineMmd(l, { ...opts, numbers_default_to_math: false })).replace(/\s+/g, ' '),
    itemStart: (l, item) => {
      const mmd = lineMmd(l, opts);
      const rest = item.marker === BULLET_MARKER ? withoutBullet(mmd) : withoutNumber(mmd);
      return { marker: mmd.slice(0, mmd.length - rest.length), mmd: rest };
    },
    codeLines: (block) => {
      const left = Math.min(...block.lines.map((l) => upright(l).x));
      return block.lines.map((l) => codeLineText(l, left, block.pitch, block.fit, upright));
    },
    region: (l) => {
      const box = upright(l);
      return { x0: box.x, x1: box.x + box.width, top: box.y };
    },
  };
}
