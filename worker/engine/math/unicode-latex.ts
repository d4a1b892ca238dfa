/**
 * A direct, per-glyph Unicode → LaTeX map for maths found in a PDF text layer.
 * This is deliberately one glyph at a time: fractions, radicals with bars and matrices are
 * two-dimensional and need a real maths parser (a separate issue).
 */

const GREEK: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\epsilon', ϵ: '\\epsilon', ζ: '\\zeta',
  η: '\\eta', θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu',
  ν: '\\nu', ξ: '\\xi', π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma',
  τ: '\\tau', υ: '\\upsilon', φ: '\\phi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega',
  Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma',
  Υ: '\\Upsilon', ϒ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
};

const SYMBOLS: Record<string, string> = {
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∼': '\\sim', '≅': '\\cong',
  '∝': '\\propto', '±': '\\pm', '∓': '\\mp', '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot',
  '∗': '*', '∘': '\\circ', '−': '-', '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint',
  '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla', '√': '\\sqrt{}', '∈': '\\in', '∉': '\\notin',
  '∋': '\\ni', '⊂': '\\subset', '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq', '∪': '\\cup',
  '∩': '\\cap', '∅': '\\emptyset', '∀': '\\forall', '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge',
  '∨': '\\vee', '⊕': '\\oplus', '⊗': '\\otimes', '→': '\\rightarrow', '←': '\\leftarrow',
  '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto', '′': '\\prime', '″': '\\prime\\prime', '°': '^{\\circ}', '∠': '\\angle',
  '⊥': '\\perp', '∥': '\\|', '⟨': '\\langle', '⟩': '\\rangle', '⌊': '\\lfloor', '⌋': '\\rfloor',
  '⌈': '\\lceil', '⌉': '\\rceil', 'ℝ': '\\mathbb{R}', 'ℕ': '\\mathbb{N}', 'ℤ': '\\mathbb{Z}',
  'ℚ': '\\mathbb{Q}', 'ℂ': '\\mathbb{C}', 'ℓ': '\\ell', 'ℏ': '\\hbar', '℘': '\\wp', 'ℵ': '\\aleph',
  '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots', '∖': '\\setminus', '∣': '\\mid',
  '≪': '\\ll', '≫': '\\gg', '≺': '\\prec', '≻': '\\succ', '⊢': '\\vdash', '⊨': '\\models',
};

/** Characters LaTeX treats specially when they appear as maths glyphs. */
const ESCAPED: Record<string, string> = { '{': '\\{', '}': '\\}', '%': '\\%', '#': '\\#', '&': '\\&', $: '\\$', _: '\\_' };

/** Bullets are drawn from Symbol-like fonts too; they mark lists, never maths. */
export const BULLETS = new Set(['•', '◦', '▪', '▫', '‣', '∙', '●', '○', '■', '□', '–', '-', '*', '', '']);

/** TeX maths fonts and symbol fonts whose every glyph is maths (CMMI10, CMSY7, CMEX10, MSBM10, Symbol…). */
const MATH_FONT = /(^|\+)(CMMI|CMSY|CMEX|CMBSY|CMMIB|MSAM|MSBM|EUFM|EUSM|RSFS|STIX.*Math|Cambria.?Math|Symbol|LatinModernMath|MathJax)/i;

export function isMathFontName(name: string): boolean {
  return MATH_FONT.test(name);
}

/** True for a character that is maths on its own, whatever font draws it. */
export function isMathChar(ch: string): boolean {
  return ch in GREEK || ch in SYMBOLS || (ch >= '\u2200' && ch <= '\u22ff') || (ch >= '\u{1d400}' && ch <= '\u{1d7ff}');
}

/** One glyph as LaTeX: Greek and symbols by the table, maths alphanumerics folded to ASCII, the rest as is. */
export function glyphToLatex(ch: string): string {
  const mapped = GREEK[ch] ?? SYMBOLS[ch] ?? ESCAPED[ch];
  if (mapped) return mapped;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0x1d400 && cp <= 0x1d6a3) {
    // Mathematical alphanumeric letters: 52 letters per style, upper then lower.
    const i = (cp - 0x1d400) % 52;
    return String.fromCharCode(i < 26 ? 65 + i : 97 + i - 26);
  }
  if (cp >= 0x1d7ce && cp <= 0x1d7ff) return String.fromCharCode(48 + ((cp - 0x1d7ce) % 10));
  return ch;
}

/** Concatenates LaTeX pieces, keeping a space after a control word when a letter follows (\alpha x, not \alphax). */
export function joinLatex(pieces: string[]): string {
  let out = '';
  for (const p of pieces) {
    if (p === '') continue;
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(p)) out += ' ';
    out += p;
  }
  return out;
}
