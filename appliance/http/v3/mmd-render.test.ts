import { describe, expect, it } from 'vitest';
import { mmdData, mmdToHtml, unescapeHtml } from './mmd-render.js';

const MMD = 'Solve \\( a<b^{2} \\) then\n\\[ x=\\frac{1}{2} \\]\n\n\\begin{tabular}{|l|l|}\n\\hline p & q \\\\\n\\hline 1 & 2 \\\\\n\\hline\n\\end{tabular}';

describe('MMD rendering for html and data (mathpix-markdown-it)', () => {
  it('gives one entry per maths element and format asked for, in reading order, unescaped', async () => {
    const data = await mmdData(MMD, { include_asciimath: true, include_latex: true });
    expect(data).toEqual([
      { type: 'asciimath', value: 'a < b^(2)' },
      { type: 'latex', value: 'a<b^{2}' },
      { type: 'asciimath', value: 'x=(1)/(2)' },
      { type: 'latex', value: 'x=\\frac{1}{2}' },
    ]);
  });

  it('gives MathML markup, SVG, TSV and table HTML when switched on', async () => {
    const data = await mmdData(MMD, { include_mathml: true, include_svg: true, include_tsv: true, include_table_html: true });
    const types = data.map((d) => d.type);
    expect(types.filter((t) => t === 'mathml')).toHaveLength(2);
    expect(types.filter((t) => t === 'svg')).toHaveLength(2);
    expect(data.find((d) => d.type === 'mathml')!.value).toMatch(/^<math[\s\S]*<mo>&lt;<\/mo>[\s\S]*<\/math>$/);
    expect(data.find((d) => d.type === 'svg')!.value).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(data.find((d) => d.type === 'tsv')!.value).toBe('p\tq\n1\t2');
    expect(data.find((d) => d.type === 'table_html')!.value).toMatch(/^<table[\s\S]*>1<\/td>[\s\S]*<\/table>$/);
  });

  it('gives nothing when no data option is on, or for text without maths', async () => {
    expect(await mmdData(MMD, {})).toEqual([]);
    expect(await mmdData('plain words only', { include_asciimath: true })).toEqual([]);
  });

  it('renders html with maths as SVG and escapes text', async () => {
    const html = await mmdToHtml('a <b> \\( x^{2} \\)');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toMatch(/<mjx-container[^>]*><svg/);
    expect(html).not.toContain('<asciimath');
    expect(await mmdToHtml('')).toBe('');
  });

  it('unescapes named and numeric entities', () => {
    expect(unescapeHtml('&lt;&#x3B1;&#946;&amp;&unknown;')).toBe('<αβ&&unknown;');
  });
});
