import { describe, expect, it } from 'vitest';
import { applyTransforms, latexFormats, latexRows, longFrac, rmFonts, rmSpaces, rmStyleSyms, rmText, wolframFromAsciimath } from './latex-formats.js';

describe('/v3/latex format_options transforms', () => {
  it('rm_spaces drops ignorable spaces but keeps the one a control word needs', () => {
    expect(rmSpaces('x ^ { 2 } + \\alpha x = \\frac { a } { b }')).toBe('x^{2}+\\alpha x=\\frac{a}{b}');
    expect(rmSpaces('\\sin ( x )')).toBe('\\sin(x)');
  });

  it('rm_fonts keeps the argument of font commands, nested too', () => {
    expect(rmFonts('\\mathbf{v} + \\mathbb{R} + \\mathrm{d}x')).toBe('v + R + dx');
    expect(rmFonts('\\mathrm{max \\mathbf{x}}')).toBe('{max x}');
    expect(rmFonts('\\operatorname*{arg\\,min}')).toBe('\\operatorname{arg\\,min}');
  });

  it('rm_style_syms removes sizing and display style and unstyles big operators', () => {
    expect(rmStyleSyms('\\left( \\dfrac{a}{b} \\right) \\bigoplus_i \\displaystyle \\Big| x')).toBe('( \\frac{a}{b} ) \\oplus_i | x');
    expect(rmStyleSyms('\\leftarrow \\bigcup')).toBe('\\leftarrow \\cup'); // \left is not a prefix of \leftarrow
  });

  it('rm_text drops words left and right of the maths, long_frac rewrites long division', () => {
    expect(rmText('\\text{hence } x = 1 \\text{ so}')).toBe('x = 1');
    expect(longFrac('12 \\longdiv { 144 } = 12')).toBe('\\frac{144}{12} = 12');
  });

  it('applies transforms in the spec order whatever order they are given in', () => {
    expect(applyTransforms('\\mathbf{x} ^ { 2 }', ['rm_spaces', 'rm_fonts'])).toBe('x^{2}');
  });

  it('builds text, text_display and the latex variants with their implicit transforms', () => {
    const f = latexFormats('\\left( \\mathbf{x} \\right) ^ { 2 }', { transforms: ['rm_spaces'], math_delims: ['$', '$'] });
    expect(f.latex_styled).toBe('\\left(\\mathbf{x}\\right)^{2}');
    expect(f.latex_normal).toBe('(x)^{2}');
    expect(f.latex_simplified).toBe('(x)^{2}');
    expect(f.latex_list).toEqual(['(x)^{2}']);
    expect(f.text).toBe('$ \\left(\\mathbf{x}\\right)^{2} $');
    expect(f.text_display).toBe('\\[\n\\left(\\mathbf{x}\\right)^{2}\n\\]');
  });

  it('splits rows of a top-level multi-row environment for latex_list', () => {
    expect(latexRows('\\begin{aligned} x &= 1 \\\\ y &= 2 \\end{aligned}')).toEqual(['x  = 1', 'y  = 2']);
    expect(latexRows('x = 1')).toEqual(['x = 1']);
  });

  it('turns AsciiMath into Wolfram Alpha input', () => {
    expect(wolframFromAsciimath('a xx b +- c')).toBe('a * b ± c');
  });
});
