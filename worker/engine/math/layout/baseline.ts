import { RULE } from '../types.js';
import { AXIS_HEIGHT } from './metrics.js';
import { centreY, glyphOf, height, median, overlap, referenceEm, width, type Element, type Glyph, type Node, type Row } from './element.js';

/** A settled element: its own em or one borrowed from a neighbour, and the baseline that follows. */
interface Settled {
  element: Element;
  em: number;
  baseline: number;
}

interface Entry {
  base: Settled;
  primes: Glyph[];
  sub: Settled[];
  sup: Settled[];
  /** A subscript set after the superscript's end (or the reverse): staggered indices, `T^{\mu\nu}{}_{\rho}`. */
  staggered?: Settled[];
}

type Relation = 'same' | 'sup' | 'sub';

/** An element that tells no size, at least this share of the height of a base that tells none either, is on its line. */
const TALL_AS_BASE = 0.8;
/** Script elements are clearly smaller than their base below this em ratio (TeX scripts are 0.7). */
const SMALLER = 0.85;
/** Operators, arrows and punctuation a prescripted nuclide may follow (a reaction equation, a list); other bases keep their scripts. */
const JOINERS = new Set(['+', '-', '=', '\\rightarrow', '\\leftarrow', '\\rightleftharpoons', '\\longrightarrow', '\\leftrightarrow', ',', ';']);
/** Marks read as a prime when set high after a base: a comma up there is a prime whatever its label. */
const PRIME_SHAPES = new Set(["'", '\\prime', ',']);
/**
 * A prime's foot stays this far (em) above its base's baseline; pdflatex sets it about 0.3 em up,
 * and an image's base em read from the box (an f with its descender) comes out a little large.
 */
const PRIME_FOOT_EM = 0.25;
const DOT_TOKENS = new Set(['.', '\\cdot']);
/** Dots of `\ldots` or `\cdots` stand less than this (em) apart… */
const DOT_GAP_EM = 0.6;
/** …and, alone with no letter beside them, less than this many of their own sizes (TeX: about 2.5). */
const LONE_DOT_GAP = 5;
/**
 * Punctuation takes no scripts: what stands low after a comma (the dots of `x_2, \ldots`) is on the
 * line. Nor does a dot: the comma after `\ldots` stands high against a dot measured at the axis.
 */
const PUNCTUATION = new Set([',', ';']);

/**
 * Reads a set of elements (structures already built) as one baseline with scripts, in the spirit
 * of DRACULAE's baseline structure trees: walking left to right, each element is on the baseline
 * of the current base, or a superscript or subscript of it, judged by how far its baseline is
 * raised or lowered in the base's em. Inside a script group the next element may continue the
 * group (same baseline as the group's last element) or be a script of that element (smaller and
 * further raised or lowered: `e^{x^2}`, `x_{i^2}`), which the recursion then sorts out. Sub- and
 * superscripts of one base start at about the same x, so `x_i^2` and `x_{i^2}` differ in where
 * the 2 starts.
 */
export function parseBaseline(elements: Element[]): Row {
  if (elements.length === 0) return { nodes: [], baseline: null, em: null };
  const settled = settle(elements).sort((a, b) => a.element.box.x0 - b.element.box.x0 || a.element.box.y0 - b.element.box.y0);
  const entries: Entry[] = [];
  for (let i = 0; i < settled.length;) {
    const entry: Entry = { base: settled[i++], primes: [], sub: [], sup: [] };
    while (i < settled.length) {
      const next = settled[i];
      const prime = PRIME_SHAPES.has(glyphOf(next.element)?.latex ?? '') ? glyphOf(next.element) : null;
      const continued = continuedGroup(next, entry);
      if (entry.sub.length + entry.sup.length === 0 && prime && next.element.box.y1 < entry.base.baseline - PRIME_FOOT_EM * entry.base.em) {
        entry.primes.push(prime);
      } else if (continued) {
        if (opensLine(next, settled[i + 1], entry.base, continued[continued.length - 1])) break;
        if (closingPeriod(next, settled[i + 1], entry.base, continued[continued.length - 1])) break;
        continued.push(next);
      } else {
        const baseLatex = glyphOf(entry.base.element)?.latex ?? '';
        const relation = PUNCTUATION.has(baseLatex) || DOT_TOKENS.has(baseLatex) ? 'same' : relate(next, entry.base);
        if (relation === 'same' || (entry.sub.length + entry.sup.length === 0 && isPrescript(next, entry.base, settled.slice(i + 1)))) break;
        if (opensLine(next, settled[i + 1], entry.base)) break;
        const other = relation === 'sup' ? entry.sub : entry.sup;
        if (entry.staggered || (other.length > 0 && (relation === 'sup' ? entry.sup : entry.sub).length === 0 && startsAfter(next, other, entry.base)))
          (entry.staggered ??= []).push(next);
        else (relation === 'sup' ? entry.sup : entry.sub).push(next);
      }
      i++;
    }
    entries.push(entry);
  }
  // A structure built around this row sits on its baseline, but only a base that knows its own size
  // can say where that is; a row of operators and structures leaves it to the structure's axis.
  const anchor = entries.find((entry) => entry.base.element.em !== null)?.base;
  return { nodes: prescripts(readDots(entries)).flatMap(entryNodes), baseline: anchor?.baseline ?? null, em: anchor?.em ?? null };
}

/**
 * A clearly smaller entry set raised or lowered just before a larger base is that base's
 * prescript (a nuclide's mass and atomic numbers, `{}^{14}_{6}C`), not a base of its own.
 */
function prescripts(items: Array<Entry | Node>): Array<Entry | Node> {
  const result: Array<Entry | Node> = [];
  for (let i = 0; i < items.length; i++) {
    // The run of small entries (digits of a mass number set one by one) up to the first larger base.
    const first = items[i];
    let end = i;
    const isSmall = (item: Entry | Node | undefined): item is Entry =>
      item !== undefined && !('kind' in item) && item.primes.length === 0 && !('kind' in first) && item.base.em * SMALLER < first.base.em;
    while (isSmall(items[end])) end++;
    const host = items[end];
    const run = items.slice(i, end) as Entry[];
    const prescript = run.length > 0 && host && !('kind' in host) ? prescriptNode(run, host.base) : null;
    if (prescript) {
      result.push(prescript);
      i = end - 1;
    } else result.push(items[i]);
  }
  return result;
}

/**
 * What a prescript is written before: a nucleus, an upper-case symbol (`C`, `\\mathrm{Th}`, `\\text{Th}`, the
 * `A` of `{}^{t}A`). Anything else after a small raised or lowered run (a lower-case letter, a
 * digit, a radical) is read on: in handwriting such a run is a symbol written small, not a prescript.
 */
const isNucleus = (node: Node): boolean => (node.kind === 'glyph' || node.kind === 'merged') && /^(\\mathrm\{|\\text\{)?[A-Z]/.test(node.latex);

/** The run's elements split into what sits raised and what sits lowered against the host, or null when the run is not a prescript. */
function prescriptNode(run: Entry[], host: Settled): Node | null {
  if (!isNucleus(host.element.node)) return null;
  const elements = run.flatMap((entry) => [entry.base, ...entry.sub, ...entry.sup]);
  if (elements.some((element) => element.em >= SMALLER * host.em)) return null;
  const right = Math.max(...elements.map((element) => element.element.box.x1));
  if (host.element.box.x0 - right > 0.3 * host.em) return null;
  const relations = elements.map((element) => relate(element, host));
  if (relations.includes('same')) return null;
  const part = (relation: Relation) => parseBaseline(elements.filter((_, k) => relations[k] === relation).map((e) => e.element)).nodes;
  return { kind: 'scripts', base: null, primes: [], sub: part('sub'), sup: part('sup') };
}

/**
 * TeX starts a base's sub- and superscript at one x; a script group that starts past the other's
 * end hangs from an empty base after it (`T^{\mu\nu}{}_{\rho}`, `R^{a}{}_{bcd}`).
 */
function startsAfter(next: Settled, other: Settled[], base: Settled): boolean {
  // An integral's superscript starts past its subscript by its slant (italic correction): tensors are letters.
  const latex = glyphOf(base.element)?.latex ?? '';
  if (!/^(\\[a-zA-Z]+|[A-Za-z])$/u.test(latex) || /^\\(int|oint|iint|iiint)$/u.test(latex)) return false;
  const end = Math.max(...other.map((settled) => settled.element.box.x1));
  return next.element.box.x0 >= end - 0.05 * next.em;
}

/** An entry's nodes: the base with its scripts, then the staggered scripts on an empty base. */
function entryNodes(entry: Entry | Node): Node[] {
  if ('kind' in entry || !entry.staggered) return [entryNode(entry)];
  const base = entry.base;
  const later = entry.staggered.map((settled) => settled.element);
  const sub = later.filter((element) => relate({ element, em: element.em ?? base.em, baseline: element.baselineFor(element.em ?? base.em) }, base) === 'sub');
  const part = (elements: Element[]) => parseBaseline(elements).nodes;
  return [entryNode(entry), { kind: 'scripts', base: null, primes: [], sub: part(sub), sup: part(later.filter((element) => !sub.includes(element))) }];
}

function entryNode(entry: Entry | Node): Node {
  if ('kind' in entry) return entry;
  const { base, primes, sub, sup } = entry;
  if (primes.length === 0 && sub.length === 0 && sup.length === 0) return base.element.node;
  const script = (group: Settled[]) => parseBaseline(group.map((settled) => settled.element)).nodes;
  return { kind: 'scripts', base: base.element.node, primes, sub: script(sub), sup: script(sup) };
}

/** Binary operators and relations: between two full-size operands they stand on the line. */
const BINARY = new Set(['+', '-', RULE, '=', '<', '>', '\\pm', '\\mp', '\\times', '\\leq', '\\geq', '\\neq', '\\approx']);

/**
 * Whether `next`, an operator that tells no size of its own, is on the base's line although its
 * height says script: the operand after it is on its line and as large as the base, so it joins two
 * full-size operands (`f+7`, `P<\lambda`), whatever a look-alike's descender (`f`, `p` for `P`,
 * `q` for `9`) made of the base's baseline. A script's operator has a script-size operand (`x_{n+1}`,
 * `e^{-x}`) or none (`a^{+}`). Inside a script already begun (`inScript`) the operand must also
 * stand on the base's own line (`x^{2}+1`): a scanned script letter's size is a guess, and
 * `\lambda^{1-q}`'s q, read as large as the base, had taken the minus out of the superscript.
 * There an operand clearly larger than the script's last element (`script`) is full-size too: a
 * letter's em read from its x-height runs large in a font of tall x-height (Palatino's x measured
 * 1.25 em of the radical after `x_{k+1}=`, which became part of the subscript).
 */
function opensLine(next: Settled, after: Settled | undefined, base: Settled, script?: Settled): boolean {
  const latex = glyphOf(next.element)?.latex;
  if (!after || next.element.em !== null || latex === undefined || !BINARY.has(latex)) return false;
  const fullSize = after.em >= SMALLER * base.em || (script !== undefined && SMALLER * after.em >= script.em);
  const onLine = after.element.em !== null && fullSize && relate(after, next) === 'same';
  return onLine && (script === undefined || relate(after, base) === 'same');
}

/**
 * Whether `next`, a dot after a script, is the period that closes the formula or a part of it
 * (`\xi_{x,y}.`, `c_{\tau}^{f}.`): it stands on the base's own line, and nothing after it goes on
 * with the script. Its em borrowed from the script, it had continued the script as a `\cdot`
 * (`\xi_{x,y\cdot}`). A dot inside a script (`x_{1.5}`) stands on the script's lowered line.
 */
function closingPeriod(next: Settled, after: Settled | undefined, base: Settled, script: Settled): boolean {
  const dot = glyphOf(next.element);
  if (!dot || !DOT_TOKENS.has(dot.latex) || relateAt({ ...next, baseline: dot.box.y1 }, base) !== 'same') return false;
  return !after || after.em >= SMALLER * base.em || relate(after, script) !== 'same';
}

/**
 * A small element set a space after an operator or arrow and just before a larger letter is that
 * letter's prescript (`\rightarrow {}^{14}_{7}N`).
 */
function isPrescript(small: Settled, base: Settled, following: Settled[]): boolean {
  const node = base.element.node;
  if (!JOINERS.has(node.kind === 'glyph' || node.kind === 'merged' ? node.latex : '')) return false;
  const host = following.find((other) => other.element.em !== null && small.em < SMALLER * other.em);
  if (!host || !isNucleus(host.element.node)) return false;
  const fromBase = small.element.box.x0 - base.element.box.x1;
  // TeX puts a thick space (0.28 em) after a relation; prescripts start together and their nucleus follows the wider one.
  return fromBase > 0.22 * base.em && host.element.box.x0 - small.element.box.x0 < 2.5 * small.em;
}

/**
 * Where `next` stands against `reference`. A lone dot's label does not say where it sits (a period
 * on the baseline and a `\cdot` at the axis are one shape; readDots decides which it is by where
 * it stands): it is on the line when either reading puts it there. Measured as a `\cdot`, a period
 * after a fraction came out 0.2 em low and became its subscript (`\frac{\partial B}{\partial t}_{\cdot}`).
 */
function relate(next: Settled, reference: Settled): Relation {
  const dot = glyphOf(next.element);
  if (!dot || !DOT_TOKENS.has(dot.latex)) return relateAt(next, reference);
  const onBaseline = relateAt({ ...next, baseline: dot.box.y1 }, reference);
  const atAxis = relateAt({ ...next, baseline: centreY(dot.box) + AXIS_HEIGHT * next.em }, reference);
  return onBaseline === 'same' || atAxis === 'same' ? 'same' : dot.latex === '.' ? onBaseline : atAxis;
}

function relateAt(next: Settled, reference: Settled): Relation {
  if (next.em * SMALLER > reference.em) return 'same';
  // Neither tells its size: a sign as tall as the structure before it is none of its scripts (the
  // `\right)` around a fraction whose deep denominator set it off the bar's axis).
  // A glyph that tells no size (a rule, a sign: the `-` of `\int_{-\infty}`) is no such structure.
  const structure = reference.element.node.kind !== 'glyph' && reference.element.node.kind !== 'merged';
  if (structure && next.element.em === null && reference.element.em === null && height(next.element.box) >= TALL_AS_BASE * height(reference.element.box))
    return 'same';
  const shift = (next.baseline - reference.baseline) / reference.em;
  const smaller = next.em < SMALLER * reference.em;
  // A glyph that cannot tell its own size (a sign, a rule) borrowed its em from the line, so a
  // raised script-size sign (`A^-`, `a^+`: centre about 0.55 em up) measures only about 0.3 em of
  // shift; a sign on the line stays at the axis, 0.25 em up. (Structures keep the stricter test.)
  const borrowed = next.element.em === null && !smaller && glyphOf(next.element) !== null;
  if (shift < (smaller ? -0.12 : borrowed ? -0.18 : -0.28)) return 'sup';
  if (shift > (smaller ? 0.06 : 0.18)) return 'sub';
  return 'same';
}

/** The script group `next` continues, if any; with both scripts present, the one whose last element is nearer in height. */
function continuedGroup(next: Settled, entry: Entry): Settled[] | null {
  const groups = [entry.sup, entry.sub].filter((group) => group.length > 0 && continuesGroup(next, group[group.length - 1], entry.base));
  const distance = (group: Settled[]) => Math.abs(centreY(group[group.length - 1].element.box) - centreY(next.element.box));
  return groups.sort((a, b) => distance(a) - distance(b))[0] ?? null;
}

function continuesGroup(next: Settled, last: Settled, base: Settled): boolean {
  if (relate(next, base) === 'same' && next.em >= SMALLER * base.em) return false;
  if (relate(next, last) !== 'same') return next.em < SMALLER * last.em && next.element.box.x0 >= last.element.box.x1 - 0.1 * last.em;
  const ratio = next.em / last.em;
  return ratio > 0.75 && ratio < 1.33 && next.element.box.x0 - last.element.box.x1 < last.em;
}

/**
 * Gives every element an em and a baseline. An element whose box does not tell its size (an
 * operator, a rule, a delimiter, a structure) borrows the em of the neighbour whose line it would
 * then sit on: with that em its own baseline lands on the neighbour's. A '+' between a subscript
 * and the next letter is on the letter's line, not the subscript's; a tall integral is on the
 * integrand's line, not its limits'.
 */
function settle(elements: Element[]): Settled[] {
  const known = elements.filter((element) => element.em !== null);
  // A row of fractions alone (`\frac{1}{a}\frac{1}{b}.`) is the size of their parts, not of their boxes.
  const held = elements.flatMap((element) => (element.heldEm === undefined ? [] : [element.heldEm]));
  const fallback = known.length === 0 && held.length > 0 ? (median(held) as number) : referenceEm(elements);
  return elements.map((element) => {
    const em = element.em ?? borrowedEm(element, known) ?? fallback;
    return { element, em, baseline: element.baselineFor(em) };
  });
}

function borrowedEm(element: Element, known: Element[]): number | null {
  const box = element.box;
  const sharing = known.filter((other) => overlap(box.y0, box.y1, other.box.y0, other.box.y1) > 0);
  let best: { em: number; cost: number } | null = null;
  for (const other of sharing.length > 0 ? sharing : known) {
    const em = other.em as number;
    const miss = Math.abs(element.baselineFor(em) - other.baselineFor(em)) / em;
    const gap = Math.max(0, other.box.x0 - box.x1, box.x0 - other.box.x1) / em;
    const cost = miss + 0.1 * gap;
    if (!best || cost < best.cost) best = { em, cost };
  }
  return best?.em ?? null;
}

/**
 * Decides dots on the baseline: '.' low, `\cdot` at the axis, judged against the neighbouring
 * base's baseline; three in a row, evenly close, are `\ldots` or `\cdots`.
 */
function readDots(entries: Entry[]): Array<Entry | Node> {
  const isDot = (entry: Entry) => DOT_TOKENS.has(glyphOf(entry.base.element)?.latex ?? '') && entry.sub.length + entry.sup.length + entry.primes.length === 0;
  const roles = entries.map((entry, index) => {
    const glyph = glyphOf(entry.base.element);
    if (!glyph || !isDot(entry)) return null;
    const before = entries
      .slice(0, index)
      .reverse()
      .find((other) => !isDot(other));
    const neighbour = before ?? entries.slice(index + 1).find((other) => !isDot(other));
    const line = (neighbour ?? entry).base;
    const raised = (line.baseline - centreY(glyph.box)) / line.em;
    // Dots alone (a matrix cell's `\cdots`) have no letter to measure their spacing by: their own size does.
    const reach = neighbour ? DOT_GAP_EM * line.em : LONE_DOT_GAP * Math.max(width(glyph.box), height(glyph.box));
    return { glyph, latex: raised > 0.15 ? '\\cdot' : '.', reach };
  });
  const result: Array<Entry | Node> = [];
  for (let i = 0; i < entries.length; i++) {
    const [a, b, c] = [roles[i], roles[i + 1], roles[i + 2]];
    if (a && b && c && a.latex === b.latex && b.latex === c.latex && b.glyph.box.x0 - a.glyph.box.x1 < a.reach && c.glyph.box.x0 - b.glyph.box.x1 < a.reach) {
      result.push({ kind: 'merged', latex: a.latex === '.' ? '\\ldots' : '\\cdots', glyphs: [a.glyph, b.glyph, c.glyph] });
      i += 2;
    } else if (a) result.push({ kind: 'glyph', glyph: a.glyph, latex: a.latex });
    else result.push(entries[i]);
  }
  return result;
}
