/**
 * A direct, per-glyph Unicode → LaTeX map for maths found in a PDF text layer.
 * This is deliberately one glyph at a time: fractions, radicals with bars and matrices are
 * two-dimensional and need a real maths parser (a separate issue).
 */

const GREEK: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\epsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ϑ: '\\vartheta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ϖ: '\\varpi',
  ρ: '\\rho',
  ϱ: '\\varrho',
  σ: '\\sigma',
  ς: '\\varsigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\phi',
  ϕ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Υ: '\\Upsilon',
  ϒ: '\\Upsilon',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
};

const SYMBOLS: Record<string, string> = {
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∼': '\\sim',
  '≅': '\\cong',
  '∝': '\\propto',
  '±': '\\pm',
  '∓': '\\mp',
  '×': '\\times',
  '÷': '\\div',
  '·': '\\cdot',
  '⋅': '\\cdot',
  '∗': '*',
  '∘': '\\circ',
  '−': '-',
  '∑': '\\sum',
  '∏': '\\prod',
  '∫': '\\int',
  '∮': '\\oint',
  '∞': '\\infty',
  '∂': '\\partial',
  '∇': '\\nabla',
  '√': '\\sqrt{}',
  '∈': '\\in',
  '∉': '\\notin',
  '∋': '\\ni',
  '⊂': '\\subset',
  '⊃': '\\supset',
  '⊆': '\\subseteq',
  '⊇': '\\supseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∅': '\\emptyset',
  '∀': '\\forall',
  '∃': '\\exists',
  '¬': '\\neg',
  '∧': '\\wedge',
  '∨': '\\vee',
  '⊕': '\\oplus',
  '⊗': '\\otimes',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '↔': '\\leftrightarrow',
  '⇒': '\\Rightarrow',
  '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto',
  '′': '\\prime',
  '″': '\\prime\\prime',
  '°': '^{\\circ}',
  '∠': '\\angle',
  '⊥': '\\perp',
  '∥': '\\|',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  ℝ: '\\mathbb{R}',
  ℕ: '\\mathbb{N}',
  ℤ: '\\mathbb{Z}',
  ℚ: '\\mathbb{Q}',
  ℂ: '\\mathbb{C}',
  ℓ: '\\ell',
  ℏ: '\\hbar',
  '℘': '\\wp',
  ℵ: '\\aleph',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '⋮': '\\vdots',
  '⋱': '\\ddots',
  '∖': '\\setminus',
  '∣': '\\mid',
  '≪': '\\ll',
  '≫': '\\gg',
  '≺': '\\prec',
  '≻': '\\succ',
  '⊢': '\\vdash',
  '⊨': '\\models',
  // Letters and ordinary symbols of the TeX and AMS fonts.
  ℜ: '\\Re',
  ℑ: '\\Im',
  ℶ: '\\beth',
  ℷ: '\\gimel',
  ℸ: '\\daleth',
  '℧': '\\mho',
  '∁': '\\complement',
  '∄': '\\nexists',
  '⊤': '\\top',
  '‵': '\\backprime',
  '∡': '\\measuredangle',
  // Binary operators.
  '⋆': '\\star',
  '⊎': '\\uplus',
  '⊓': '\\sqcap',
  '⊔': '\\sqcup',
  '≀': '\\wr',
  '⋄': '\\diamond',
  '⊖': '\\ominus',
  '⊘': '\\oslash',
  '⊙': '\\odot',
  '\u20DD': '\\bigcirc',
  '⨿': '\\amalg',
  '⋉': '\\ltimes',
  '⋊': '\\rtimes',
  '⊞': '\\boxplus',
  '⊟': '\\boxminus',
  '⊠': '\\boxtimes',
  '⊡': '\\boxdot',
  '⊛': '\\circledast',
  '⊚': '\\circledcirc',
  '⋎': '\\curlyvee',
  '⋏': '\\curlywedge',
  '⊺': '\\intercal',
  '∔': '\\dotplus',
  '⊼': '\\barwedge',
  '⊻': '\\veebar',
  // Relations, negated ones included (the AMS fonts draw each as one glyph).
  '≃': '\\simeq',
  '≍': '\\asymp',
  '⌣': '\\smile',
  '⌢': '\\frown',
  '⊣': '\\dashv',
  '⊏': '\\sqsubset',
  '⊐': '\\sqsupset',
  '⊑': '\\sqsubseteq',
  '⊒': '\\sqsupseteq',
  '⪯': '\\preceq',
  '⪰': '\\succeq',
  '≼': '\\preccurlyeq',
  '≽': '\\succcurlyeq',
  '⩽': '\\leqslant',
  '⩾': '\\geqslant',
  '≦': '\\leqq',
  '≧': '\\geqq',
  '≲': '\\lesssim',
  '≳': '\\gtrsim',
  '≶': '\\lessgtr',
  '≷': '\\gtrless',
  '≊': '\\approxeq',
  '≐': '\\doteq',
  '≑': '\\doteqdot',
  '≜': '\\triangleq',
  '⊜': '\\circeq',
  '⊲': '\\lhd',
  '⊳': '\\rhd',
  '⊴': '\\unlhd',
  '⊵': '\\unrhd',
  '⊩': '\\Vdash',
  '⊪': '\\Vvdash',
  '⊫': '\\VDash',
  '⊧': '\\models',
  '⊸': '\\multimap',
  '⋈': '\\bowtie',
  '≬': '\\between',
  '⋔': '\\pitchfork',
  '∴': '\\therefore',
  '∵': '\\because',
  '≰': '\\nleq',
  '≱': '\\ngeq',
  '≮': '\\nless',
  '≯': '\\ngtr',
  '⊈': '\\nsubseteq',
  '⊉': '\\nsupseteq',
  '⊊': '\\subsetneq',
  '⊋': '\\supsetneq',
  '∤': '\\nmid',
  '∦': '\\nparallel',
  '≇': '\\ncong',
  '≁': '\\nsim',
  '⊀': '\\nprec',
  '⊁': '\\nsucc',
  '⊬': '\\nvdash',
  '⊭': '\\nvDash',
  // Arrows and harpoons.
  '↑': '\\uparrow',
  '↓': '\\downarrow',
  '⇑': '\\Uparrow',
  '⇓': '\\Downarrow',
  '↕': '\\updownarrow',
  '⇕': '\\Updownarrow',
  '↗': '\\nearrow',
  '↘': '\\searrow',
  '↙': '\\swarrow',
  '↖': '\\nwarrow',
  '↼': '\\leftharpoonup',
  '↽': '\\leftharpoondown',
  '⇀': '\\rightharpoonup',
  '⇁': '\\rightharpoondown',
  '↾': '\\upharpoonright',
  '↿': '\\upharpoonleft',
  '⇂': '\\downharpoonright',
  '⇃': '\\downharpoonleft',
  '⇌': '\\rightleftharpoons',
  '⇋': '\\leftrightharpoons',
  '⇄': '\\rightleftarrows',
  '⇆': '\\leftrightarrows',
  '⇉': '\\rightrightarrows',
  '⇇': '\\leftleftarrows',
  '⇝': '\\rightsquigarrow',
  '↠': '\\twoheadrightarrow',
  '↞': '\\twoheadleftarrow',
  '↣': '\\rightarrowtail',
  '↢': '\\leftarrowtail',
  '↺': '\\circlearrowleft',
  '⟲': '\\circlearrowleft',
  '↻': '\\circlearrowright',
  '⟳': '\\circlearrowright',
  '↛': '\\nrightarrow',
  '↚': '\\nleftarrow',
  '↮': '\\nleftrightarrow',
  '⇏': '\\nRightarrow',
  '⇍': '\\nLeftarrow',
  '⇎': '\\nLeftrightarrow',
  '↪': '\\hookrightarrow',
  '↩': '\\hookleftarrow',
  '↰': '\\Lsh',
  '↱': '\\Rsh',
  '⟶': '\\longrightarrow',
  '⟵': '\\longleftarrow',
  '⟷': '\\longleftrightarrow',
  '⟹': '\\Longrightarrow',
  '⟸': '\\Longleftarrow',
  '⟺': '\\Longleftrightarrow',
  '⟼': '\\longmapsto',
  '⇛': '\\Rrightarrow',
  '⇚': '\\Lleftarrow',
};

/**
 * Symbols that prose uses too (footnote daggers, check marks, boxes, suits, dotless i): maths
 * commands when a maths font draws them, but no sign of maths by themselves (see isMathChar).
 */
const SHARED_SYMBOLS: Record<string, string> = {
  ı: '\\imath',
  ȷ: '\\jmath',
  ð: '\\eth',
  '△': '\\triangle',
  '▽': '\\triangledown',
  '◁': '\\triangleleft',
  '▷': '\\triangleright',
  '◯': '\\bigcirc',
  '†': '\\dagger',
  '‡': '\\ddagger',
  '♣': '\\clubsuit',
  '♢': '\\diamondsuit',
  '♡': '\\heartsuit',
  '♠': '\\spadesuit',
  '♭': '\\flat',
  '♯': '\\sharp',
  '♮': '\\natural',
  '✓': '\\checkmark',
  '■': '\\blacksquare',
  '∎': '\\blacksquare',
  '□': '\\square',
  '◊': '\\lozenge',
  '⌜': '\\ulcorner',
  '⌝': '\\urcorner',
  '⌞': '\\llcorner',
  '⌟': '\\lrcorner',
};

/** Characters LaTeX treats specially when they appear as maths glyphs. */
const ESCAPED: Record<string, string> = { '{': '\\{', '}': '\\}', '%': '\\%', '#': '\\#', '&': '\\&', $: '\\$', _: '\\_' };

/** Bullets are drawn from Symbol-like fonts too; they mark lists, never maths. */
export const BULLETS = new Set(['•', '◦', '▪', '▫', '‣', '∙', '●', '○', '■', '□', '–', '-', '*', '', '']);

/** TeX maths fonts and symbol fonts whose every glyph is maths (CMMI10, CMSY7, CMEX10, MSBM10, Symbol, MathDesign's and kpfonts' maths italic, symbols and extension…). */
const MATH_FONT =
  /(^|\+)(CMMI|CMSY|CMEX|CMBSY|CMMIB|MSAM|MSBM|EUFM|EUSM|RSFS|STIX.*Math|Cambria.?Math|Symbol|LatinModernMath|MathJax|MathDesign-.*-(Symbol-|Extension|MathItalic)|Kp-+M-(Sy|Ex|Italic))/i;

export function isMathFontName(name: string): boolean {
  return MATH_FONT.test(name);
}

/** True for a Chinese, Japanese or Korean character: a word of text on its own, never a maths symbol. */
export const isCjkChar = (ch: string) => /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u.test(ch);

/** True for a character that is maths on its own, whatever font draws it. */
export function isMathChar(ch: string): boolean {
  return ch in GREEK || ch in SYMBOLS || (ch >= '\u2200' && ch <= '\u22ff') || (ch >= '\u{1d400}' && ch <= '\u{1d7ff}');
}

/** One glyph as LaTeX: Greek and symbols by the table, maths alphanumerics folded to ASCII, the rest as is. */
export function glyphToLatex(ch: string): string {
  const mapped = GREEK[ch] ?? SYMBOLS[ch] ?? SHARED_SYMBOLS[ch] ?? ESCAPED[ch];
  if (mapped) return mapped;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0x1d400 && cp <= 0x1d6a3) {
    // Mathematical alphanumeric letters: 52 letters per style, upper then lower.
    const i = (cp - 0x1d400) % 52;
    return String.fromCharCode(i < 26 ? 65 + i : 97 + i - 26);
  }
  if (cp >= 0x1d7ce && cp <= 0x1d7ff) return String.fromCharCode(48 + ((cp - 0x1d7ce) % 10));
  // Mathematical Greek (bold, italic, sans …: U+1D6A8–1D7CB) and ℎ (U+210E, italic h): their compatibility form is the plain letter.
  if ((cp >= 0x1d6a8 && cp <= 0x1d7cb) || cp === 0x210e) {
    const plain = ch.normalize('NFKC');
    return GREEK[plain] ?? SYMBOLS[plain] ?? SHARED_SYMBOLS[plain] ?? plain;
  }
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
