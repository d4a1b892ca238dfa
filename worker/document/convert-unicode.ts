/**
 * LaTeX spellings (pdflatex, amsmath + amssymb, as pandoc's template loads) of characters that
 * recognised documents carry and LaTeX's utf8 input does not define, or defines for text mode
 * only (× ± ÷ · ¬ µ would fail inside \( \)). Maths symbols go through \ensuremath so they
 * work in text and in formulas alike. Characters outside this table fall back to a boxed "?"
 * (convert-latex.ts).
 */
const math = (entries: Record<string, string>) => Object.fromEntries(Object.entries(entries).map(([ch, cmd]) => [ch, `\\ensuremath{${cmd}}`]));

const GREEK = math({
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', µ: '\\mu', ν: '\\nu', ξ: '\\xi',
  ο: 'o', π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', ς: '\\varsigma', σ: '\\sigma', τ: '\\tau', υ: '\\upsilon',
  φ: '\\varphi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega',
  Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon',
  Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega', '\u2126': '\\Omega',
  Α: '\\mathrm{A}', Β: '\\mathrm{B}', Ε: '\\mathrm{E}', Ζ: '\\mathrm{Z}', Η: '\\mathrm{H}', Ι: '\\mathrm{I}', Κ: '\\mathrm{K}',
  Μ: '\\mathrm{M}', Ν: '\\mathrm{N}', Ο: '\\mathrm{O}', Ρ: '\\mathrm{P}', Τ: '\\mathrm{T}', Χ: '\\mathrm{X}',
});

const OPERATORS = math({
  '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '·': '\\cdot', '⋅': '\\cdot', '∘': '\\circ', '¬': '\\neg',
  '−': '-', '∗': '\\ast', '√': '\\surd', '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla', '∅': '\\emptyset',
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '≅': '\\cong', '∼': '\\sim', '≃': '\\simeq',
  '∝': '\\propto', '≪': '\\ll', '≫': '\\gg', '≺': '\\prec', '≻': '\\succ', '⊥': '\\perp', '∥': '\\parallel', '∣': '\\mid',
  '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset', '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq',
  '∪': '\\cup', '∩': '\\cap', '∧': '\\wedge', '∨': '\\vee', '⊕': '\\oplus', '⊗': '\\otimes', '⊙': '\\odot',
  '∀': '\\forall', '∃': '\\exists', '∄': '\\nexists', '∠': '\\angle', '△': '\\triangle', '□': '\\square',
  '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '↑': '\\uparrow', '↓': '\\downarrow', '↦': '\\mapsto',
  '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow', '⟶': '\\longrightarrow', '⟹': '\\Longrightarrow',
  '′': '^{\\prime}', '″': '^{\\prime\\prime}', '∴': '\\therefore', '∵': '\\because', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots',
  '⟨': '\\langle', '⟩': '\\rangle', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil',
  ℝ: '\\mathbb{R}', ℕ: '\\mathbb{N}', ℤ: '\\mathbb{Z}', ℚ: '\\mathbb{Q}', ℂ: '\\mathbb{C}', ℓ: '\\ell', ℏ: '\\hbar', ℵ: '\\aleph',
});

/** Text-extraction leftovers of born-digital PDFs: ligature glyphs and invisible spaces. */
const TEXT: Record<string, string> = {
  ﬀ: 'ff', ﬁ: 'fi', ﬂ: 'fl', ﬃ: 'ffi', ﬄ: 'ffl', 'ﬅ': 'st', 'ﬆ': 'st',
  '\u200b': '\\hspace{0pt}', '\u200c': '{}', '\u200d': '{}', '\u2060': '{}', '\ufeff': '{}',
  '\u2002': '\\enspace{}', '\u2003': '\\quad{}', '\u2009': '\\,', '\u202f': '\\,',
};

export const UNICODE_TO_LATEX: Readonly<Record<string, string>> = { ...GREEK, ...OPERATORS, ...TEXT };
