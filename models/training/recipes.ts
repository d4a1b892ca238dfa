import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';

/**
 * How to typeset each classifier class on its own, as TeX both MathJax and pdflatex accept. Some
 * classes get several recipes because context changes the glyph: display-style big operators,
 * delimiters stretched to fraction height, radicals over radicands of different size (drawn as
 * phantoms, so only the sign itself is inked), and the three dot roles that share the class '.'.
 */

const DELIMITER_PAIRS: Record<string, 'left' | 'right' | 'both'> = {
  '(': 'left',
  '[': 'left',
  '\\{': 'left',
  '\\langle': 'left',
  ')': 'right',
  ']': 'right',
  '\\}': 'right',
  '\\rangle': 'right',
  '|': 'both',
  '\\|': 'both',
  '\\lfloor': 'left',
  '\\rfloor': 'right',
};
const BIG_OPERATORS = new Set(['\\sum', '\\prod', '\\int', '\\oint', '\\bigcup', '\\bigcap']);
const TALL = '\\vphantom{\\dfrac{A}{B}}';

export function recipesFor(token: string): string[] {
  const side = DELIMITER_PAIRS[token];
  if (side) {
    const stretched = side === 'right' ? `\\left.${TALL}\\right${token}` : `\\left${token}${TALL}\\right.`;
    return [token, `\\big${token}`, `\\Big${token}`, `\\bigg${token}`, stretched];
  }
  if (BIG_OPERATORS.has(token)) return [token, `\\displaystyle${token}`];
  switch (token) {
    case '.':
      return ['.', '\\cdot', '\\dot{\\phantom{x}}'];
    case '\\prime':
      return ['\\prime', "{}'"];
    case '\\hat':
    case '\\tilde':
    case '\\vec':
      return [`${token}{\\phantom{x}}`, `${token}{\\phantom{a}}`];
    case '\\sqrt':
      return ['\\sqrt{\\phantom{x}}', '\\sqrt{\\phantom{x^2+y}}', `\\sqrt{${TALL}\\phantom{ab}}`, `\\sqrt{\\phantom{\\displaystyle\\sum_i^n}}`];
    default:
      return [token];
  }
}

/**
 * Every class with its recipes, in vocabulary order (the order of the classifier's outputs). The
 * image classifier's upright letters (`\mathrm{x}`) are their own recipe.
 */
export function allRecipes(classes: readonly string[] = SYMBOL_CLASSES): Array<{ label: number; token: string; recipes: string[] }> {
  return classes.map((token, label) => ({ label, token, recipes: recipesFor(token) }));
}
