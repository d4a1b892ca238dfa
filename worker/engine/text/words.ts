import type { OcrWord } from '../../../page/model.js';
import type { Box } from './image.js';
import type { CharSpan } from './recognize.js';

export type { OcrWord } from '../../../page/model.js';

/**
 * The words of a recognised line (runs of characters between spaces), each boxed from its first
 * character's columns to its last's and given the line's rows. Columns are clamped to the line.
 */
export function lineWords(spans: CharSpan[], line: Box): OcrWord[] {
  const words: OcrWord[] = [];
  let run: CharSpan[] = [];
  const flush = () => {
    if (!run.length) return;
    const x0 = Math.max(line.x, run[0]!.x0);
    const x1 = Math.min(line.x + line.width, run.at(-1)!.x1);
    words.push({
      text: run.map((c) => c.char).join(''),
      confidence: run.reduce((s, c) => s + c.p, 0) / run.length,
      box: { x: x0, y: line.y, width: Math.max(1, x1 - x0), height: line.height },
    });
    run = [];
  };
  for (const span of spans) {
    if (span.char.trim() === '') flush();
    else run.push(span);
  }
  flush();
  return words;
}
