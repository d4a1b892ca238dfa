import type { Category, Formula } from '../eval/corpus.js';
import { seededRandom as random } from './augment.js';

/**
 * The calibration set of the formula-image confidence (fit-formula-confidence.ts): formulas drawn
 * by a small seeded grammar in the six categories of the held-out set (models/eval/formulas.tsv),
 * from the constructs those formulas use (scripts, fractions, radicals, big operators with limits,
 * Greek, function names, accents, fonts, cases, matrices, chemistry). Written by a generator, never
 * copied from the held-out set: `calibrationFormulas` drops any formula that normalises to one of
 * the held-out formulas, so the calibrator is never fitted on what it is reported on.
 */

const VARIABLES = 'abcdefghkmnpqrstuvwxyzABCDEFGHKLMNPQRSTUVWXYZ'.split('');
const GREEK = [
  '\\alpha',
  '\\beta',
  '\\gamma',
  '\\delta',
  '\\theta',
  '\\lambda',
  '\\mu',
  '\\pi',
  '\\rho',
  '\\sigma',
  '\\tau',
  '\\phi',
  '\\omega',
  '\\varepsilon',
  '\\eta',
  '\\xi',
  '\\Omega',
  '\\Delta',
  '\\Gamma',
  '\\Phi',
  '\\Sigma',
  '\\Lambda',
];
const FUNCTIONS = ['\\sin', '\\cos', '\\tan', '\\ln', '\\log', '\\exp'];
const BINARY = ['+', '-', '+', '-', '\\cdot', '\\times', '\\pm'];
const RELATIONS = ['=', '=', '=', '<', '>', '\\leq', '\\geq', '\\neq', '\\approx', '\\equiv', '\\to'];
const ELEMENTS = ['H', 'O', 'C', 'N', 'Na', 'Cl', 'Ca', 'Fe', 'S', 'K', 'Mg', 'Al', 'Cu', 'Zn', 'P'];

/** Pieces joined into one LaTeX string, with a space where a control word would run into a letter (`\\pi r`). */
function cat(...pieces: string[]): string {
  return pieces.reduce((out, piece) => (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z0-9]/.test(piece) ? `${out} ${piece}` : out + piece), '');
}

class Grammar {
  constructor(private readonly next: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  number(): string {
    if (this.chance(0.15)) return `${this.int(0, 99)}.${this.int(0, 9)}${this.chance(0.5) ? this.int(0, 9) : ''}`;
    return String(this.chance(0.7) ? this.int(0, 9) : this.chance(0.7) ? this.int(10, 99) : this.int(100, 999));
  }

  letter(): string {
    return this.chance(0.2) ? this.pick(GREEK) : this.pick(VARIABLES);
  }

  /** A letter, perhaps with a subscript or a power. */
  atom(depth: number): string {
    let base = this.letter();
    if (this.chance(0.05)) base = `${this.pick(['\\bar', '\\hat', '\\vec', '\\tilde', '\\dot'])}{${base}}`;
    if (this.chance(0.25)) base += `_{${this.chance(0.6) ? this.int(0, 9) : this.pick(VARIABLES)}}`;
    if (this.chance(0.25)) base += `^{${depth > 1 || this.chance(0.6) ? this.int(2, 4) : this.term(depth + 1)}}`;
    return base;
  }

  /** A product of factors: atoms, functions of atoms, brackets, fractions, radicals. */
  term(depth: number): string {
    const factors: string[] = this.chance(0.3) ? [this.number()] : [];
    const count = this.int(1, depth > 1 ? 2 : 3);
    for (let i = 0; i < count; i++) {
      const roll = this.next();
      if (depth < 2 && roll < 0.12) factors.push(`\\frac{${this.expression(depth + 1)}}{${this.expression(depth + 1)}}`);
      else if (depth < 2 && roll < 0.19) factors.push(`\\sqrt{${this.expression(depth + 1)}}`);
      else if (depth < 2 && roll < 0.27) factors.push(`(${this.expression(depth + 1)})${this.chance(0.4) ? `^{${this.int(2, 3)}}` : ''}`);
      else if (depth < 2 && roll < 0.33) factors.push(`${this.pick(FUNCTIONS)}${this.chance(0.5) ? ` ${this.pick(VARIABLES)}` : `(${this.atom(depth + 1)})`}`);
      else factors.push(this.atom(depth));
    }
    return cat(...factors);
  }

  expression(depth: number): string {
    const terms = [this.term(depth)];
    const more = depth > 1 ? this.int(0, 1) : this.int(0, 2);
    for (let i = 0; i < more; i++) terms.push(this.pick(BINARY), this.term(depth));
    return cat(...terms);
  }

  relation(): string {
    return cat(this.expression(0), this.pick(RELATIONS), this.expression(0));
  }

  bigOperator(): string {
    const i = this.pick(['i', 'k', 'n', 'j']);
    const op = this.pick(['\\sum', '\\sum', '\\prod', '\\int', '\\int', '\\lim']);
    if (op === '\\lim') return cat(`\\lim_{${i}\\to ${this.pick(['\\infty', '0', 'a'])}}`, this.term(1));
    if (op === '\\int') {
      const limits = this.chance(0.6) ? `_{${this.pick(['0', 'a', '-\\infty', '1'])}}^{${this.pick(['1', 'b', '\\infty', 'x', 'T'])}}` : '';
      return cat(`\\int${limits}`, this.term(1), `\\,d${this.pick(['x', 't', 'u', 's'])}`);
    }
    return cat(`${op}_{${i}=${this.pick(['0', '1'])}}^{${this.pick(['n', 'N', '\\infty', 'm'])}}`, this.term(1));
  }

  chemistry(): string {
    const molecule = () => {
      const parts: string[] = [];
      for (let i = this.int(1, 3); i > 0; i--) parts.push(`${this.pick(ELEMENTS)}${this.chance(0.6) ? `_${this.int(2, 6)}` : ''}`);
      return `${this.chance(0.3) ? this.int(2, 4) : ''}${parts.join('')}`;
    };
    if (this.chance(0.3)) return `\\mathrm{${molecule()}^{${this.pick(['+', '-', '2+', '2-', '3+'])}}}`;
    return `\\mathrm{${molecule()}+${molecule()}\\rightarrow ${molecule()}${this.chance(0.5) ? `+${molecule()}` : ''}}`;
  }

  matrix(): string {
    const kind = this.pick(['pmatrix', 'bmatrix', 'vmatrix']);
    const size = this.int(2, 3);
    const rows = Array.from({ length: size }, () => Array.from({ length: size }, () => (this.chance(0.7) ? this.number() : this.pick(VARIABLES))).join('&'));
    return `${this.chance(0.5) ? `${this.pick(['A', 'B', 'M'])}=` : ''}\\begin{${kind}}${rows.join('\\\\')}\\end{${kind}}`;
  }

  cases(): string {
    const x = this.pick(['x', 't', 'n']);
    return `f(${x})=\\begin{cases}${this.expression(1)}&${x}${this.pick(['<', '\\geq', '>'])}${this.number()}\\\\${this.expression(1)}&${x}${this.pick(['\\leq', '<', '='])}${this.number()}\\end{cases}`;
  }

  formula(category: Category): string {
    switch (category) {
      case 'algebra':
        return this.chance(0.7) ? this.relation() : this.expression(0);
      case 'calculus':
        return this.chance(0.65)
          ? `${this.bigOperator()}=${this.expression(1)}`
          : this.chance(0.5)
            ? `\\frac{d${this.pick(['y', 'f'])}}{d${this.pick(['x', 't'])}}=${this.expression(1)}`
            : this.bigOperator();
      case 'linear-algebra':
        return this.chance(0.5)
          ? this.matrix()
          : `${this.pick(['\\det', '\\mathrm{tr}', '\\mathrm{rank}'])}(${this.pick(['A', 'B', 'AB', 'A^{T}'])})=${this.expression(1)}`;
      case 'probability':
        return this.chance(0.3)
          ? this.cases()
          : `${this.pick(['P', 'E', '\\mathrm{Var}'])}(${this.pick(['X', 'A', 'Y'])}${this.chance(0.4) ? `\\mid ${this.pick(['B', 'Y'])}` : ''})=${this.chance(0.4) ? this.bigOperator() : this.expression(0)}`;
      case 'physics':
        return cat(this.letter(), this.chance(0.3) ? `_{${this.int(0, 2)}}` : '', '=', this.expression(0));
      case 'chemistry':
        return this.chemistry();
    }
  }
}

const CATEGORIES: readonly Category[] = ['algebra', 'calculus', 'linear-algebra', 'probability', 'physics', 'chemistry'];

/**
 * `count` formulas, spread over the categories in turn, none of which normalises (by `normalise`)
 * to any of `heldOut` or to an earlier formula of the set.
 */
export function calibrationFormulas(count: number, heldOut: readonly string[], normalise: (latex: string) => string, seed = 16): Formula[] {
  const grammar = new Grammar(random(seed));
  const seen = new Set(heldOut.map(normalise));
  const out: Formula[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const category = CATEGORIES[out.length % CATEGORIES.length]!;
    const latex = grammar.formula(category);
    let key: string;
    try {
      key = normalise(latex);
    } catch {
      continue;
    }
    if (seen.has(key) || latex.length > 90) continue;
    seen.add(key);
    out.push({ id: `cal-${String(out.length + 1).padStart(4, '0')}`, category, latex });
  }
  return out;
}
