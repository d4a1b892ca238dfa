import { DATA_OPTION_KEYS } from './text-options.js';

/**
 * MMD → the `html` and `data` fields of 2.1, through mathpix-markdown-it (MathJax 3 inside), the
 * renderer the hosted service's own clients use. It is loaded on first use: it brings MathJax
 * and its fonts (tens of MB) that an appliance answering only documents never needs.
 *
 * `data` lists, for every maths element and table in reading order, one {type, value} per
 * format the caller switched on in data_options: asciimath, mathml, latex (include_latex),
 * svg (include_svg), tsv and table_html (tables). include_sub_math is accepted: Folio lists
 * every maths element separately already, so it changes nothing.
 */

export type DataOptions = Partial<Record<(typeof DATA_OPTION_KEYS)[number], boolean>>;

interface MathpixModel {
  markdownToHTML(mmd: string, opts: { outMath?: Record<string, boolean> }): string;
}
let model: Promise<MathpixModel> | undefined;
const load = () => (model ??= import('mathpix-markdown-it').then((m) => m.MathpixMarkdownModel as unknown as MathpixModel));

/** The annotated HTML of an MMD text: maths rendered as SVG, as the hosted service answers. */
export async function mmdToHtml(mmd: string): Promise<string> {
  if (mmd === '') return '';
  return (await load()).markdownToHTML(mmd, {
    outMath: { include_svg: true, include_asciimath: false, include_mathml: false, include_latex: false, include_tsv: false, include_table_html: false },
  });
}

const HIDDEN_FORMATS: Array<[tag: string, type: string, option: keyof DataOptions]> = [
  ['asciimath', 'asciimath', 'include_asciimath'],
  ['mathml', 'mathml', 'include_mathml'],
  ['latex', 'latex', 'include_latex'],
  ['tsv', 'tsv', 'include_tsv'],
];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** Undoes the HTML escaping of a hidden element's text. */
export function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** The `data` array for an MMD text and the caller's data_options; [] when none is on. */
export async function mmdData(mmd: string, opts: DataOptions = {}): Promise<Array<{ type: string; value: string }>> {
  const wanted = HIDDEN_FORMATS.filter(([, , option]) => opts[option]);
  if (mmd === '' || (!wanted.length && !opts.include_svg && !opts.include_table_html)) return [];
  const html = (await load()).markdownToHTML(mmd, {
    outMath: {
      include_asciimath: !!opts.include_asciimath,
      include_mathml: !!opts.include_mathml,
      include_latex: !!opts.include_latex,
      // include_table_html on makes tabular render as a <table> at all (off, only hidden formats remain).
      include_tsv: !!opts.include_tsv,
      include_svg: !!opts.include_svg,
      include_table_html: true,
      include_table_markdown: false,
    },
  });
  const tags = wanted.map(([tag]) => tag);
  const pattern = new RegExp(
    [
      ...(tags.length ? [`<(?<tag>${tags.join('|')})\\b[^>]*>(?<hidden>[\\s\\S]*?)</\\k<tag>>`] : []),
      ...(opts.include_svg ? ['<mjx-container\\b[^>]*>(?<svg><svg[\\s\\S]*?</svg>)</mjx-container>'] : []),
      ...(opts.include_table_html ? ['(?<table><table\\b[\\s\\S]*?</table>)'] : []),
    ].join('|'),
    'g',
  );
  const out: Array<{ type: string; value: string }> = [];
  for (const m of html.matchAll(pattern)) {
    const { tag, hidden, svg, table } = m.groups!;
    if (tag && hidden !== undefined) {
      // Hidden formats are escaped text, except mathml, which is markup.
      out.push({ type: HIDDEN_FORMATS.find(([t]) => t === tag)![1], value: tag === 'mathml' ? hidden.trim() : unescapeHtml(hidden) });
    } else if (svg) out.push({ type: 'svg', value: svg });
    else if (table) out.push({ type: 'table_html', value: table });
  }
  return out;
}
