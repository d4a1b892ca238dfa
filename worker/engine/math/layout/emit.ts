import type { MathResult, SymbolStyle } from '../types.js';
import type { Glyph, Node } from './element.js';

/** Environments whose delimiters are part of the environment; any other pair is written around a plain `matrix`. */
const DELIMITED_ENVIRONMENTS = new Set(['pmatrix', 'bmatrix', 'Bmatrix', 'vmatrix', 'Vmatrix', 'cases']);

/**
 * Writes the layout tree as LaTeX the way a person types it (`x^{2}`, `\frac{a}{b}`,
 * `\sum_{i=1}^{n}`), with a space only where LaTeX needs one (a control word before a letter),
 * and lists every glyph in reading order with the token it became.
 */
export function emitLatex(nodes: Node[]): Pick<MathResult, 'latex' | 'boxes'> {
  const boxes: MathResult['boxes'] = [];
  const record = (glyph: Glyph, latex: string) => boxes.push({ latex, box: glyph.box, confidence: glyph.confidence });
  const row = (items: Node[]): string => join(sidesets(items).map((item) => (typeof item === 'string' ? item : node(item))));
  const scripts = (sub: Node[], sup: Node[]) => (sub.length ? `_{${row(sub)}}` : '') + (sup.length ? `^{${row(sup)}}` : '');

  /**
   * `\sideset{_a^b}{_c^d}\prod_k`: scripts beside an operator whose limits are stacked, which
   * amsmath sets with `\sideset` (a script written on such an operator would stack too).
   */
  function sideset(left: Extract<Node, { kind: 'scripts' }> | null, right: Extract<Node, { kind: 'scripts' }> | Node): string {
    const side = (item: Extract<Node, { kind: 'scripts' }> | null) => {
      item?.primes.forEach((prime) => record(prime, "'"));
      return item ? "'".repeat(item.primes.length) + scripts(item.sub, item.sup) : '';
    };
    const [operator, rightScripts] = right.kind === 'scripts' && right.base ? [right.base, right] : [right, null];
    return `\\sideset{${side(left)}}{${side(rightScripts)}}${node(operator)}`;
  }

  /** The row's nodes, a base-less script before an operator with stacked limits joined to it as its `\sideset`. */
  function sidesets(items: Node[]): Array<Node | string> {
    const out: Array<Node | string> = [];
    for (let i = 0; i < items.length; i++) {
      const [item, next] = [items[i]!, items[i + 1]];
      const operator = next?.kind === 'scripts' && next.base ? next.base : next;
      if (item.kind !== 'scripts' || !next || !operator || !stackedLimits(operator)) {
        out.push(item);
        continue;
      }
      // Scripts read onto the `+` before the operator (`+\sideset{_a^b}{}\prod`) are its left ones: an operator takes none.
      const onOperator = item.base?.kind === 'glyph' && BINARY_OR_RELATION.has(item.base.latex);
      const left = item.base === null || onOperator ? { ...item, base: null } : leftPair(item, operator);
      if (!left) {
        out.push(item);
        continue;
      }
      if (onOperator) out.push(item.base!);
      out.push(sideset(left, next));
      i++;
    }
    return out;
  }

  function node(item: Node): string {
    switch (item.kind) {
      case 'glyph': {
        const latex = styled(item.latex, item.glyph.style);
        record(item.glyph, latex);
        return latex;
      }
      case 'merged':
        item.glyphs.forEach((glyph) => record(glyph, item.latex));
        return item.latex;
      case 'fraction':
        record(item.bar, '\\frac');
        return `\\frac{${row(item.numerator)}}{${row(item.denominator)}}`;
      case 'radical': {
        record(item.sign, '\\sqrt');
        const index = item.index.length ? `[${row(item.index)}]` : '';
        return `\\sqrt${index}{${row(item.radicand)}}`;
      }
      case 'accent':
        item.marks.forEach((mark) => record(mark, item.command));
        return `${item.command}${item.below ? `[${row(item.below)}]` : ''}{${row(item.body)}}`;
      case 'limits': {
        // The operator's glyphs keep their boxes whichever name the marked `\lim` is written with.
        const operator = node(item.operator);
        const variant = limitVariant(item);
        return join([variant?.name ?? operator, scripts(variant?.under ?? item.under, item.over)]);
      }
      case 'scripts': {
        if (item.base && stackedLimits(item.base)) return sideset(null, item);
        const base = item.base ? node(item.base) : '{}';
        item.primes.forEach((prime) => record(prime, "'"));
        return join([base, "'".repeat(item.primes.length) + scripts(item.sub, item.sup)]);
      }
      case 'matrix': {
        const columns = Math.max(...item.rows.map((cells) => cells.length));
        const body = () => item.rows.map((cells) => dottedRow(cells.map(row), columns)).join(' \\\\ ');
        const environment = (content: string) => `\\begin{${item.environment}}${content}\\end{${item.environment}}`;
        if (!item.open) return environment(body());
        if (item.environment === 'binom') {
          record(item.open, '\\binom');
          const [upper, lower] = item.rows.map((cells) => row(cells[0]));
          if (item.close) record(item.close, '\\binom');
          return `\\binom{${upper}}{${lower}}`;
        }
        const delimited = DELIMITED_ENVIRONMENTS.has(item.environment);
        record(item.open, delimited ? `\\begin{${item.environment}}` : `\\left${item.open.latex}`);
        const grid = environment(body());
        if (item.close) record(item.close, delimited ? `\\end{${item.environment}}` : `\\right${item.close.latex}`);
        return delimited ? grid : `\\left${item.open.latex}${grid}\\right${item.close?.latex ?? '.'}`;
      }
      case 'stack': {
        const under = item.under.length ? `\\underset{${row(item.under)}}{${node(item.base)}}` : node(item.base);
        return item.over.length ? `\\overset{${row(item.over)}}{${under}}` : under;
      }
      case 'rows': {
        const body = item.rows.map((cells) => cells.map(row).join(' & ')).join(' \\\\ ');
        return item.environment === 'substack' ? `\\substack{${body}}` : `\\begin{${item.environment}}${body}\\end{${item.environment}}`;
      }
    }
  }
  return { latex: row(nodes), boxes };
}

/** A matrix row of dots alone in two or more columns is amsmath's `\hdotsfor` across them all. */
function dottedRow(cells: string[], columns: number): string {
  const dots = cells.filter((cell) => cell !== '');
  const dotted = dots.length > 1 && dots.every((cell) => /^(\\[lc]dots|\.)+$/u.test(cell));
  return dotted && columns > 1 ? `\\hdotsfor{${columns}}` : cells.join(' & ');
}

const ARROW_LIMITS: Record<string, string> = {
  '\\rightarrow': '\\varinjlim',
  '\\longrightarrow': '\\varinjlim',
  '\\leftarrow': '\\varprojlim',
  '\\longleftarrow': '\\varprojlim',
};

/**
 * amsmath's limits of `\lim` with a mark: `\varliminf` and `\varlimsup` (underlined and
 * overlined), `\varinjlim` and `\varprojlim` (an arrow under the name, read as the first line of
 * its limits). Null for any other operator.
 */
function limitVariant(item: Extract<Node, { kind: 'limits' }>): { name: string; under: Node[] } | null {
  const operator = item.operator;
  if (operator.kind === 'accent' && operator.body.length === 1 && operator.body[0]!.kind === 'merged' && operator.body[0]!.latex === '\\lim') {
    if (operator.command === '\\underline') return { name: '\\varliminf', under: item.under };
    if (operator.command === '\\overline') return { name: '\\varlimsup', under: item.under };
  }
  if (operator.kind !== 'merged' || operator.latex !== '\\lim') return null;
  const stack = item.under.length === 1 && item.under[0]!.kind === 'rows' && item.under[0]!.environment === 'substack' ? item.under[0]! : null;
  const first = stack?.rows[0];
  const arrow = first?.length === 1 && first[0]!.length === 1 && first[0]![0]!.kind === 'glyph' ? ARROW_LIMITS[first[0]![0]!.glyph.latex] : undefined;
  if (!stack || !arrow) return null;
  const rest = stack.rows.slice(1);
  return { name: arrow, under: rest.length === 1 ? rest[0]![0]! : [{ ...stack, rows: rest }] };
}

/** Font commands for the styles a PDF reports; italic and upright are the defaults of letters and need none. */
const STYLE_COMMANDS: Partial<Record<SymbolStyle, string>> = {
  bold: '\\mathbf',
  blackboard: '\\mathbb',
  calligraphic: '\\mathcal',
  script: '\\mathscr',
  fraktur: '\\mathfrak',
  typewriter: '\\mathtt',
};

/** A letter in its font (`\mathbf{x}`, `\mathbb{R}`); a bold Greek letter is `\boldsymbol`, and so is anything a bold maths font draws (`\boldsymbol{x}`, `\boldsymbol{+}`). */
function styled(latex: string, style: SymbolStyle | undefined): string {
  if (style === 'bold-italic') return `\\boldsymbol{${latex}}`;
  const command = style && STYLE_COMMANDS[style];
  if (!command) return latex;
  if (/^[A-Za-z0-9]$/u.test(latex)) return `${command}{${latex}}`;
  return style === 'bold' && /^\\[a-zA-Z]+$/u.test(latex) ? `\\boldsymbol{${latex}}` : latex;
}

/** Concatenates pieces with a space only between a control word and a following letter (`\alpha x`). */
function join(pieces: string[]): string {
  let text = '';
  for (const piece of pieces) {
    if (/\\[a-zA-Z]+$/u.test(text) && /^[a-zA-Z]/u.test(piece)) text += ' ';
    text += piece;
  }
  return text;
}

const BINARY_OR_RELATION = new Set(['+', '-', '=', '<', '>', '\\times', '\\cdot', '\\pm', '\\mp', '\\leq', '\\geq', '\\neq', '\\equiv', '\\approx']);

/**
 * A left superscript and subscript of an operator with stacked limits, which the parser read as a
 * base (the superscript, raised above the operator's middle) with a subscript below its middle.
 */
function leftPair(item: Extract<Node, { kind: 'scripts' }>, operator: Node): Extract<Node, { kind: 'scripts' }> | null {
  if (item.base?.kind !== 'glyph' || item.sup.length > 0 || item.primes.length > 0 || item.sub.length !== 1 || item.sub[0]!.kind !== 'glyph') return null;
  if (operator.kind !== 'limits' || operator.operator.kind !== 'glyph') return null;
  const middle = (operator.operator.glyph.box.y0 + operator.operator.glyph.box.y1) / 2;
  const raised = item.base.glyph.box.y1 < middle && item.sub[0]!.glyph.box.y0 > middle;
  return raised ? { kind: 'scripts', base: null, primes: [], sub: item.sub, sup: [item.base] } : null;
}

/** An operator with limits stacked under or over it. */
const stackedLimits = (item: Node) => item.kind === 'limits' && (item.under.length > 0 || item.over.length > 0);
