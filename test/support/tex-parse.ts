import { mathjax } from '@mathjax/src/js/mathjax.js';
import { TeX } from '@mathjax/src/js/input/tex.js';
import { liteAdaptor } from '@mathjax/src/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from '@mathjax/src/js/handlers/html.js';
import { STATE } from '@mathjax/src/js/core/MathItem.js';
import '@mathjax/src/js/input/tex/base/BaseConfiguration.js';
import '@mathjax/src/js/input/tex/ams/AmsConfiguration.js';

/**
 * Test support: whether LaTeX is well formed, by MathJax's TeX parser (base and ams packages):
 * the parser's error message (`Missing argument for \vec`, `\begin{gathered} ended with \end{aligned}`),
 * or undefined when it parses.
 */
RegisterHTMLHandler(liteAdaptor());
const document = mathjax.document('', {
  InputJax: new TeX({
    packages: ['base', 'ams'],
    formatError: (_jax: unknown, err: Error) => {
      throw err;
    },
  }),
});

export function texError(latex: string): string | undefined {
  try {
    document.convert(latex, { display: true, end: STATE.COMPILED });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
