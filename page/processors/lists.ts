import { BULLET_MARKER, type ListItem } from '../blocks-model.js';

/**
 * Lists, one rule for every source (recognised lines in blocks.ts, glyph lines in
 * text-layer-blocks.ts). A line starting with a bullet or a number (`1.`, `1)`) starts an item;
 * items nest by indent, a level being an item that starts more than half a unit right of the
 * level above; a line starting more than half a unit right of its item's first line goes on the
 * item; a change of marker kind (bullets, numbers) at one depth starts a new list. Each source
 * says what a bullet is (a text layer's bullet glyph before a space; a text model's bullet-like
 * character, which may have lost its space) and gives its unit: the font size on a text layer,
 * the body line height in an image.
 */

const NUMBERED = /^(\d{1,3})[.)]\s/;

/**
 * A list item's marker: BULLET_MARKER for a line the source found bulleted, `N. ` for one
 * starting with a number; undefined for no item. A number before words in capitals only
 * (`1. INTRODUCTION`) is a section's, not an item's.
 */
export function listMarker(text: string, bulleted: boolean): string | undefined {
  if (bulleted) return BULLET_MARKER;
  const m = NUMBERED.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m[0].length);
  return /\p{Lu}\p{Lu}/u.test(rest) && !/\p{Ll}/u.test(rest) ? undefined : `${m[1]}. `;
}

/** A numbered item's text without its number as printed (`2) ` or `2. `). */
export const withoutNumber = (text: string) => text.replace(NUMBERED, '');

/** The indents of an open list's levels, outermost first. */
export class ListLevels {
  private indents: number[] = [];

  /** The depth of an item starting at `x`, in the list open (`goesOn`) or in a new one. */
  depth(x: number, unit: number, goesOn: boolean): number {
    if (!goesOn) this.indents = [];
    while (this.indents.length && x < this.indents.at(-1)! - 0.5 * unit) this.indents.pop();
    if (!this.indents.length || x > this.indents.at(-1)! + 0.5 * unit) this.indents.push(x);
    return this.indents.length - 1;
  }
}

/** A line starting at `x` goes on the item whose first line starts at `itemX`. */
export const goesOnItem = (x: number, itemX: number, unit: number) => x > itemX + 0.5 * unit;

/** An item goes on the list before it unless its marker changes kind (bullets, numbers) at the same depth. */
export function sameList<L>(prev: ListItem<L>, item: ListItem<L>): boolean {
  return (prev.marker === BULLET_MARKER) === (item.marker === BULLET_MARKER) || item.depth !== prev.depth;
}
