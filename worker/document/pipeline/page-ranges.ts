import { ApiError } from '../../../core/errors.js';

/**
 * Parses a page_ranges option (spec 4.7): comma-separated pages or ranges, 1-based, where a
 * negative number counts from the end (-1 is the last page). '2,4-6' → [2,4,5,6];
 * '2 - -2' → page 2 to the next-to-last. Returns sorted, unique page numbers.
 * An empty or blank spec selects every page.
 * @throws ApiError('opts_bad_page_range') when a part cannot be parsed or leaves the document.
 */
export function parsePageRanges(spec: string | undefined, numPages: number): number[] {
  if (spec === undefined || spec.trim() === '') return Array.from({ length: numPages }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    const m = /^(-?\d+)(?:\s*-\s*(-?\d+))?$/.exec(part);
    if (!m) throw bad(spec, `cannot parse '${part}'`);
    const from = resolve(Number(m[1]), numPages, spec);
    const to = m[2] === undefined ? from : resolve(Number(m[2]), numPages, spec);
    if (from > to) throw bad(spec, `range '${part}' runs backwards (${from} > ${to})`);
    for (let p = from; p <= to; p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}

function resolve(n: number, numPages: number, spec: string): number {
  const page = n < 0 ? numPages + 1 + n : n;
  if (n === 0 || page < 1 || page > numPages) throw bad(spec, `page ${n} is outside a document of ${numPages} pages`);
  return page;
}

function bad(spec: string, why: string): ApiError {
  return new ApiError('opts_bad_page_range', `Bad page_ranges '${spec}': ${why}`, {}, false);
}
