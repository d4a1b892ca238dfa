import { groupAccents, groupNegations } from './accents.js';
import { groupArrowLabels } from './arrows.js';
import { groupBraces } from './braces.js';
import { parseBaseline } from './baseline.js';
import type { Element, Row } from './element.js';
import { groupFrames } from './frames.js';
import { groupLimits } from './limits.js';
import { groupMatrices } from './matrix.js';
import { groupRadicals } from './radicals.js';
import { groupRules } from './rules.js';
import { groupStacks } from './stacks.js';
import { groupWords } from './words.js';

/**
 * Parses a set of elements into a row. Structures that claim a region are built first, each
 * parsing its parts by calling back into this function; the order matters: a `\boxed` frame owns what it holds, matrices isolate their
 * cells, a horizontal brace owns what it spans and its label, radicals own what is under their vinculum, rules (widest first) own what is above and
 * below them, a `\not` slash and accents own the one symbol they mark, words form before `\lim` takes its limits,
 * arrows take their labels once limits hold theirs, pieces centred over a symbol are `\\overset`, and what is left is one baseline with scripts.
 */
export function parseRow(elements: Element[]): Row {
  let pool = groupFrames(elements, parseRow);
  pool = groupMatrices(pool, parseRow);
  pool = groupBraces(pool, parseRow);
  pool = groupRadicals(pool, parseRow);
  pool = groupRules(pool, parseRow);
  pool = groupNegations(pool);
  pool = groupAccents(pool, parseRow);
  pool = groupWords(pool);
  pool = groupLimits(pool, parseRow);
  pool = groupArrowLabels(pool, parseRow);
  pool = groupStacks(pool, parseRow);
  return parseBaseline(pool);
}
