import type { UsageExport } from './api.js';

const COLUMNS = [
  'pages_billable',
  'images_billable',
  'documents_billable',
  'pages_completed',
  'pages_failed',
  'documents_completed',
  'documents_failed',
  'images_completed',
  'images_failed',
] as const;

/** The usage export as CSV: one row a day, a total row, and the statement's identity on every row. */
export function usageCsv(x: UsageExport): string {
  const head = ['day', 'invoice_quantity', ...COLUMNS, 'deployment_id', 'customer', 'statement_version', 'exported_at'];
  const ident = [x.deployment_id, x.customer, String(x.statement_version), x.exported_at];
  const row = (day: string, r: Record<(typeof COLUMNS)[number], number>) => [
    day,
    String(r.pages_billable + r.images_billable),
    ...COLUMNS.map((c) => String(r[c])),
    ...ident,
  ];
  const lines = [head, ...x.days.map((d) => row(d.day, d)), row('total', x.totals)];
  return `${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}

const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

export const csvName = (x: UsageExport) => `folio-usage-${x.deployment_id.replace(/[^A-Za-z0-9._-]/g, '_')}-${x.from}-${x.to}.csv`;
