/** Boxes in pixels of a page image, and the turn between the image as sent and upright. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest box holding every one of `boxes` (at least one). */
export function enclosing(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

/** Whether two boxes share half the lower one's height of rows or more: they stand side by side on one row. */
export const sharesRows = (a: Box, b: Box): boolean => Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) >= Math.min(a.height, b.height) / 2;

/** Clockwise degrees that turn the input upright (`sharp(input).rotate(rotation)`). */
export type Rotation = 0 | 90 | 180 | -90;

/**
 * Maps a box found in the upright image (the input turned by `rotation`) back to the input's
 * pixels. `uprightWidth`/`uprightHeight` are the upright image's size.
 */
export function boxToInput(box: Box, rotation: Rotation, uprightWidth: number, uprightHeight: number): Box {
  const { x, y, width, height } = box;
  switch (rotation) {
    case 0:
      return box;
    case 180:
      return { x: uprightWidth - x - width, y: uprightHeight - y - height, width, height };
    case 90: // the input was turned clockwise to read it: its x runs down the upright image
      return { x: y, y: uprightWidth - x - width, width: height, height: width };
    case -90:
      return { x: uprightHeight - y - height, y: x, width: height, height: width };
  }
}

/**
 * The inverse of boxToInput: a box in the input's pixels → the upright image's (the input turned
 * by `rotation`; `uprightWidth`/`uprightHeight` are the upright image's size: the input's, its
 * sides swapped for ±90).
 */
export function boxToUpright(box: Box, rotation: Rotation, uprightWidth: number, uprightHeight: number): Box {
  const { x, y, width, height } = box;
  switch (rotation) {
    case 0:
      return box;
    case 180:
      return { x: uprightWidth - x - width, y: uprightHeight - y - height, width, height };
    case 90:
      return { x: uprightWidth - y - height, y: x, width: height, height: width };
    case -90:
      return { x: y, y: uprightHeight - x - width, width: height, height: width };
  }
}
