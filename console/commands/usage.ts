import type { Command } from 'commander';
import type { Usage } from '../api-types.js';
import { contextOf } from '../context.js';
import { CliError } from '../http.js';
import { type Column, table } from '../table.js';

/** The counters of a usage row (spec 4.14), in the order of CSV columns. */
const FIELDS = [
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

const HEADERS: Record<(typeof FIELDS)[number], string> = {
  pages_billable: 'BILL PAGES',
  images_billable: 'BILL IMAGES',
  documents_billable: 'BILL DOCS',
  pages_completed: 'PAGES OK',
  pages_failed: 'PAGES FAILED',
  documents_completed: 'DOCS OK',
  documents_failed: 'DOCS FAILED',
  images_completed: 'IMAGES OK',
  images_failed: 'IMAGES FAILED',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `folio usage`: per-day usage and totals, as a table or CSV. */
export function usageCommand(program: Command): Command {
  return program
    .command('usage')
    .description('usage per day (UTC) and totals; the invoice quantity is pages_billable + images_billable')
    .option('--from <YYYY-MM-DD>', 'first day, inclusive (default: 29 days before --to)')
    .option('--to <YYYY-MM-DD>', 'last day, inclusive (default: today, UTC)')
    .option('--csv', 'one CSV row per day, with a header row')
    .action(async (opts: { from?: string; to?: string; csv?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      for (const [name, v] of [
        ['--from', opts.from],
        ['--to', opts.to],
      ] as const) {
        if (v !== undefined && !DAY.test(v)) throw new CliError(`${name} must be a date written YYYY-MM-DD (UTC)`);
      }
      const u = (await ctx.client.call<Usage>('GET', '/pco/v1/usage', { query: { from: opts.from, to: opts.to } })).body;
      if (ctx.json) return ctx.printJson(u);
      if (opts.csv) return ctx.print(toCsv(u.days));
      type Row = Usage['totals'] & { day: string };
      const columns: Column<Row>[] = [
        { header: 'DAY', value: (r) => r.day },
        ...FIELDS.map((f) => ({ header: HEADERS[f], value: (r: Row) => r[f], align: 'right' as const })),
      ];
      // Quiet days are noise in a 30-day table; the CSV keeps every day for spreadsheets.
      const active = u.days.filter((d) => FIELDS.some((f) => d[f] > 0));
      ctx.print(table([...active, { day: 'TOTAL', ...u.totals }], columns));
      if (active.length < u.days.length) ctx.print(`${u.days.length - active.length} of ${u.days.length} days had no usage and are not shown`);
      ctx.print(`invoice quantity ${u.from}..${u.to}: ${u.totals.pages_billable + u.totals.images_billable} (pages_billable + images_billable)`);
    });
}

/** Day rows as CSV: a header row, then one row per day (the fields are numbers and dates, nothing to quote). */
function toCsv(days: Usage['days']): string {
  return [['day', ...FIELDS].join(','), ...days.map((d) => [d.day, ...FIELDS.map((f) => d[f])].join(','))].join('\n');
}
