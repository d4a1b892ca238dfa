import type { Box } from './image.js';

/**
 * Reading order for one column of text: top to bottom, and left to right among boxes that share
 * a line band (a box whose vertical centre falls inside the band's extent joins it). Columns
 * are the document pipeline's business, not this function's.
 */
export function readingOrder<T extends { box: Box }>(items: T[]): T[] {
  const byTop = [...items].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const bands: { top: number; bottom: number; members: T[] }[] = [];
  for (const item of byTop) {
    const centre = item.box.y + item.box.height / 2;
    const band = bands.at(-1);
    if (band && centre >= band.top && centre <= band.bottom) {
      band.members.push(item);
      band.bottom = Math.max(band.bottom, item.box.y + item.box.height);
    } else {
      bands.push({ top: item.box.y, bottom: item.box.y + item.box.height, members: [item] });
    }
  }
  return bands.flatMap((band) => band.members.sort((a, b) => a.box.x - b.box.x));
}
