/**
 * Test support: a born-digital page of maths as pdflatex typesets it, with the LaTeX of each
 * display equation in page order, so tests compare what the pipeline reads with the source.
 */

export const INLINE_PARAGRAPH = "Let $x^2+y_i$ and $\\alpha\\le\\beta$ hold for $f'(x)$ in $\\mathbb{R}$, as assumed.";

/** Display equations in page order; the sum is numbered (1) by the equation environment. */
export const DISPLAYS = [
  'x=\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}',
  '\\sum_{i=1}^{n} i^2=\\frac{n(n+1)(2n+1)}{6}',
  '\\int_0^\\infty e^{-x^2}dx=\\frac{\\sqrt{\\pi}}{2}',
  'A=\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}',
  'f(x)=\\begin{cases} 1 & x>0 \\\\ 0 & \\text{otherwise} \\end{cases}',
  "\\hat{x}+\\bar{y}+\\vec{v}+g'(t)+\\Gamma(\\lambda)",
];
export const NUMBERED_DISPLAY = 1;

export const MATH_PAGE_BODY = [
  INLINE_PARAGRAPH,
  '',
  `The roots of the quadratic are \\[ ${DISPLAYS[0]} \\] and the sum of squares is`,
  `\\begin{equation} ${DISPLAYS[1]} \\end{equation}`,
  `while the Gaussian integral is \\[ ${DISPLAYS[2]} \\] for the matrix`,
  `\\[ ${DISPLAYS[3]} \\] and the step function`,
  `\\[ ${DISPLAYS[4]} \\] with accents and primes \\[ ${DISPLAYS[5]} \\] to end the page.`,
].join('\n');
