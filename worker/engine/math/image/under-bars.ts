import type { SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import { normaliseCrop } from './normalise.js';
import { isFlat } from './shape.js';
import type { ClassifiedGroup } from './split.js';
import { BARRED } from './vocabulary.js';

/**
 * Parts an `\underline` from its glyph. The merge step joins a bar under a glyph of its width, as
 * `\leq`'s bar belongs to its `<`; under a letter the group reads unsurely as something barred or
 * as the letter (`\underline{w}`: `w` at 0.25), and its box, reaching down to the bar, then makes
 * the next symbol a superscript. When the glyph alone reads surer than the pair, and not as a
 * barred class, the two are a glyph and a RULE.
 */
export async function splitUnderBars(
  items: ClassifiedGroup[],
  map: ComponentMap,
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const trials = items.flatMap((item) => {
    const { parts } = item.group;
    if (!item.label || BARRED.has(item.label.latex) || parts.length !== 2) return [];
    const [upper, bar] = parts[0]!.box.y0 <= parts[1]!.box.y0 ? [parts[0]!, parts[1]!] : [parts[1]!, parts[0]!];
    return isFlat(bar) && !isFlat(upper) && bar.box.y0 >= upper.box.y1 - 1 ? [{ item, upper, bar }] : [];
  });
  if (!trials.length) return items;
  const reads = await classifier.classify(trials.map(({ upper }) => normaliseCrop(map, [upper.id], upper.box, emPx)));
  const replaced = new Map<ClassifiedGroup, ClassifiedGroup[]>();
  trials.forEach(({ item, upper, bar }, k) => {
    const read = reads[k]!;
    if (BARRED.has(read.latex) || read.confidence <= item.label!.confidence) return;
    replaced.set(item, [{ group: { parts: [upper], box: upper.box, rule: false }, label: read }, { group: { parts: [bar], box: bar.box, rule: true } }]);
  });
  return items.flatMap((item) => replaced.get(item) ?? [item]);
}
