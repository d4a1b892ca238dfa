import { describe, expect, it } from 'vitest';
import { errorPlace, escapeLatexText, unrenderFormulaAt } from './convert-latex-repair.js';

const TEX = [
  '\\begin{document}',
  'Good \\(a^2\\), bad \\(x_1_2\\) and more.',
  'A long line of prose before any maths \\(\\alpha\\) then \\(\\nosuchmacro{y}\\) and \\(\\sqrt{b}\\).',
  '\\[',
  '\\frac{1}',
  '\\]',
  'Prose \\undefined here.',
  '\\end{document}',
].join('\n');

describe('errorPlace', () => {
  it('reads the line and the text before the error from a pdflatex log', () => {
    const log = './document.tex:3: Undefined control sequence.\nl.3 ...ths \\(\\alpha\\) then \\(\\nosuchmacro\n                    {y}\\) and\n';
    expect(errorPlace(log, 'document.tex')).toEqual({ line: 3, before: '...ths \\(\\alpha\\) then \\(\\nosuchmacro' });
    expect(errorPlace('! Emergency stop.\n', 'document.tex')).toBeNull();
  });
});

describe('unrenderFormulaAt', () => {
  it('replaces only the formula the error is in, on a line holding several', () => {
    const out = unrenderFormulaAt(TEX, { line: 2, before: 'Good \\(a^2\\), bad \\(x_1_' })!;
    expect(out).toContain('Good \\(a^2\\), bad \\folioUnrendered{\\textbackslash{}(x\\_1\\_2\\textbackslash{})} and more.');
    const cut = unrenderFormulaAt(TEX, { line: 3, before: '...ths \\(\\alpha\\) then \\(\\nosuchmacro' })!;
    expect(cut).toContain('\\(\\alpha\\) then \\folioUnrendered{\\textbackslash{}(\\textbackslash{}nosuchmacro\\{y\\}\\textbackslash{})} and \\(\\sqrt{b}\\)');
  });

  it('finds a display formula over several lines, and nothing for an error in prose', () => {
    expect(unrenderFormulaAt(TEX, { line: 6, before: '\\]' })).toContain(
      '\\folioUnrendered{\\textbackslash{}[ \\textbackslash{}frac\\{1\\} \\textbackslash{}]}',
    );
    expect(unrenderFormulaAt(TEX, { line: 7, before: 'Prose \\undefined' })).toBeNull();
  });
});

describe('escapeLatexText', () => {
  it('escapes every character LaTeX treats specially', () => {
    expect(escapeLatexText('\\a{b}$&#%_^~')).toBe('\\textbackslash{}a\\{b\\}\\$\\&\\#\\%\\_\\^{}\\textasciitilde{}');
  });
});
