import { parseLayout } from './worker/engine/math/layout/index.js';
import { normaliseLatex } from './worker/engine/math/latex-normalise.js';
import { RULE } from './worker/engine/math/types.js';
import { accent, bigop, cdots, fenced, fn, frac, g, grid, ldots, row, scripts, sqrt, sub, sup, typeset } from './worker/engine/math/layout/test-typesetter.js';
const cases: Array<[any, string]> = [
 [row(sup('x', '2'), '+', sub('y', 'i')), 'x^{2}+y_{i}'],
 [scripts('x', 'i', '2'), 'x_{i}^{2}'],
 [sup('e', sup('x', '2')), 'e^{x^{2}}'], [sub('x', sup('i', '2')), 'x_{i^{2}}'],
 [row(sub('a', 'n+1'), '=', sub('a', 'n'), '+', '1'), 'a_{n+1}=a_{n}+1'],
 [row(sup('x', '2'), 'y'), 'x^{2}y'], [sup('x', '2y'), 'x^{2y}'],
 [row(sup('f', g('\\prime')), '(x)'), "f'(x)"],
 [frac(frac('1', 'x'), row('1', '-', frac('1', 'y'))), '\\frac{\\frac{1}{x}}{1-\\frac{1}{y}}'],
 [sup('e', frac('1', '2')), 'e^{\\frac{1}{2}}'],
 [row('a', '-', frac('b', 'c'), '-', 'd'), 'a-\\frac{b}{c}-d'],
 [row(accent(RULE, 'AB'), '=', 'c'), '\\overline{AB}=c'],
 [row(sqrt('x'), '+', '1'), '\\sqrt{x}+1'], [sqrt('x', '3'), '\\sqrt[3]{x}'],
 [sqrt(frac(sup('a', '2'), 'b')), '\\sqrt{\\frac{a^{2}}{b}}'],
 [row(bigop('\\sum', 'i=1', 'n'), sub('x', 'i')), '\\sum_{i=1}^{n}x_{i}'],
 [row(bigop('\\int', '0', '1', false), 'f(x)', fn('d'), 'x'), '\\int_{0}^{1}f(x)dx'],
 [row(bigop(fn('lim'), 'n\\rightarrow\\infty', null), sub('a', 'n')), '\\lim_{n\\rightarrow\\infty}a_{n}'],
 [fenced('[', grid([['a+b', sup('c', '2')], ['-d', '0']]), ']'), '\\begin{bmatrix}a+b & c^{2} \\\\ -d & 0\\end{bmatrix}'],
 [row('f(x)=', fenced('\\{', grid([['x', row('x', '\\geq', '0')], ['-x', row('x', '<', '0')]], 'left', 1.2), '.')), 'f(x)=\\begin{cases}x & x\\geq0 \\\\ -x & x<0\\end{cases}'],
 [row(accent('\\hat', 'x'), '+', accent('\\vec', 'v')), '\\hat{x}+\\vec{v}'],
 [row(sup(fn('cos'), '2'), '\\theta'), '\\cos^{2}\\theta'],
 [row('a', g('\\cdot'), 'b', g('.')), 'a\\cdot b.'],
 [row('1', ',', '2', ',', ldots), '1,2,\\ldots'],
 [row('x=', frac(row('-b', '\\pm', sqrt(row(sup('b', '2'), '-', '4ac'))), '2a')), 'x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}'],
 [row(bigop('\\int', '0', '\\infty', false), sup('e', row('-', sup('x', '2'))), fn('d'), 'x'), '\\int_{0}^{\\infty}e^{-x^{2}}dx'],
 [row(sup('f', g('\\prime')), '(x)=', bigop(fn('lim'), 'h\\rightarrow0', null), frac('f(x+h)-f(x)', 'h')), "f'(x)=\\lim_{h\\rightarrow0}\\frac{f(x+h)-f(x)}{h}"],
 [row(sub('a', row('-', '1')), '+', sub('b', 'k')), 'a_{-1}+b_{k}'],
 [fenced('(', grid([['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9']]), ')'), '\\begin{pmatrix}1&2&3\\\\4&5&6\\\\7&8&9\\end{pmatrix}'],
 [fenced('(', grid([[frac('1','2'), '0'], ['0', frac('a','b')]]), ')'), '\\begin{pmatrix}\\frac{1}{2}&0\\\\0&\\frac{a}{b}\\end{pmatrix}'],
 [row(fenced('(', frac('a', 'b'), ')'), sup('', '2')), '(\\frac{a}{b})^{2}'],
];
let fails = 0, total = 0;
for (const [item, want] of cases) {
  const w = normaliseLatex(want);
  const bad: string[] = [];
  for (let seed = 1; seed <= 60; seed++) { total++; const got = normaliseLatex(parseLayout(typeset(item, 'image', seed)).latex); if (got !== w) { fails++; if (bad.length < 2) bad.push(`${seed}: ${got}`); } }
  const pdf = normaliseLatex(parseLayout(typeset(item, 'pdf')).latex);
  if (pdf !== w) console.log('PDF FAIL', want, pdf);
  if (bad.length) console.log('IMG', want, bad.join(' | '));
}
console.log('image failures', fails, '/', total);
