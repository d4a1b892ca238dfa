import { api, type UsageExport } from '../api.js';
import { barChart } from '../chart.js';
import { fill, h, tableHead } from '../dom.js';
import { addDays, num, utcDay } from '../format.js';
import { errorNote, type Page } from '../page.js';
import { csvName, usageCsv } from '../usage-csv.js';

const DEFAULT_DAYS = 30;

/** Billable usage by day for a chosen range: chart, table, CSV and the JSON statement. */
export const usagePage: Page = (main, ctx) => {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const to = h('input', { type: 'date', id: 'usage-to', name: 'to', required: true, value: params.get('to') ?? utcDay() });
  const from = h('input', {
    type: 'date',
    id: 'usage-from',
    name: 'from',
    required: true,
    value: params.get('from') ?? addDays(to.value, -(DEFAULT_DAYS - 1)),
  });
  const chart = barChart('Billable units per day (pages billable plus images billable).', 'units');
  const summary = h('p', { class: 'big-number' });
  const downloads = h('p', { class: 'toolbar' });
  const table = h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Usage table' });
  const problem = h('div');
  let csvUrl: string | null = null;
  const dropCsv = () => csvUrl && URL.revokeObjectURL(csvUrl);
  ctx.onLeave(() => {
    chart.destroy();
    dropCsv();
  });

  const form = h(
    'form',
    {
      class: 'toolbar',
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        history.replaceState(null, '', `#/usage?from=${from.value}&to=${to.value}`);
        void load();
      },
    },
    h('label', { for: 'usage-from' }, 'From (UTC)'),
    from,
    h('label', { for: 'usage-to' }, 'To (UTC)'),
    to,
    h('button', { type: 'submit' }, 'Show'),
  );
  fill(
    main,
    h('h1', null, 'Usage'),
    form,
    problem,
    h('section', { class: 'panel', 'aria-labelledby': 'usage-h' }, h('h2', { id: 'usage-h' }, 'Billable usage by day'), summary, downloads, chart.el, table),
  );

  async function load(): Promise<void> {
    let x: UsageExport;
    try {
      x = await api.usageExport(from.value, to.value);
    } catch (err) {
      if (ctx.alive) fill(problem, errorNote(err));
      return;
    }
    if (!ctx.alive) return;
    fill(problem);
    const t = x.totals;
    fill(summary, num(t.pages_billable + t.images_billable), h('span', { class: 'unit' }, ` billable units from ${x.from} to ${x.to}`));
    dropCsv();
    csvUrl = URL.createObjectURL(new Blob([usageCsv(x)], { type: 'text/csv' }));
    const q = `from=${x.from}&to=${x.to}`;
    fill(
      downloads,
      h('a', { class: 'button-link', href: csvUrl, download: csvName(x), id: 'usage-csv' }, 'Download CSV'),
      h('a', { class: 'button-link secondary', href: `/pco/v1/usage/export?${q}` }, 'Download JSON statement'),
    );
    chart.set(
      x.days.map((d) => Date.parse(`${d.day}T12:00:00Z`) / 1000),
      x.days.map((d) => d.pages_billable + d.images_billable),
    );
    const cols = [
      'Day',
      'Billable units',
      'Pages billable',
      'Images billable',
      'Documents completed',
      'Documents failed',
      'Pages completed',
      'Pages failed',
      'Images completed',
      'Images failed',
    ];
    const cells = (r: typeof t) =>
      [
        r.pages_billable + r.images_billable,
        r.pages_billable,
        r.images_billable,
        r.documents_completed,
        r.documents_failed,
        r.pages_completed,
        r.pages_failed,
        r.images_completed,
        r.images_failed,
      ].map((n) => h('td', { class: 'num' }, num(n)));
    // Newest day first: today is what an operator checks.
    fill(
      table,
      h(
        'table',
        { class: 'usage' },
        h('caption', { class: 'visually-hidden' }, `Usage by day from ${x.from} to ${x.to}`),
        tableHead(cols),
        h(
          'tbody',
          null,
          [...x.days].reverse().map((d) => h('tr', { 'data-day': d.day }, h('th', { scope: 'row' }, d.day), cells(d))),
        ),
        h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, 'Total'), cells(t))),
      ),
    );
  }
  void load();
};
