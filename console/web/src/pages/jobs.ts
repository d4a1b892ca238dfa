import { api, JOB_STATUSES, type Job } from '../api.js';
import { badge, fill, h, progressBar, setText, syncRows, tableHead } from '../dom.js';
import { duration, num, shortTime } from '../format.js';
import { jobHref, jobPercent } from '../job-progress.js';
import { errorNote, type Page } from '../page.js';

const POLL_MS = 2_000;
const PAGE = 50;

type Row = HTMLTableRowElement & { set?: (j: Job) => void };

/** Every job, newest first, with a status filter and progress that moves on its own. */
export const jobsPage: Page = (main, ctx) => {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  let status = params.get('status') ?? '';
  let limit = PAGE;
  const filter = h(
    'select',
    {
      id: 'status-filter',
      onchange: () => {
        status = filter.value;
        history.replaceState(null, '', status ? `#/jobs?status=${status}` : '#/jobs');
        void refresh();
      },
    },
    h('option', { value: '' }, 'All statuses'),
    JOB_STATUSES.map((s) => h('option', { value: s, selected: s === status }, s.replaceAll('_', ' '))),
  );
  const tbody = h('tbody');
  const empty = h('p', { class: 'sub', hidden: true }, 'No jobs yet. Create one with POST /pco/v1/jobs or `folio jobs create`.');
  const more = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      hidden: true,
      onclick: () => {
        limit += PAGE;
        void refresh();
      },
    },
    'Show more',
  );
  const problem = h('div');
  const updated = h('p', { class: 'sub', 'aria-live': 'off' });

  fill(
    main,
    h('h1', null, 'Jobs'),
    h('div', { class: 'toolbar' }, h('label', { for: 'status-filter' }, 'Status'), filter, updated),
    problem,
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Jobs table' },
      h(
        'table',
        { class: 'jobs' },
        h('caption', { class: 'visually-hidden' }, 'Jobs, newest first, refreshed every 2 seconds'),
        tableHead(['Job', 'Status', 'Progress', 'Files done', 'Failed', 'Pages', 'Pages/min', 'ETA', 'Created']),
        tbody,
      ),
    ),
    empty,
    more,
  );

  const createRow = (j: Job): Row => {
    const bar = progressBar(`Progress of ${j.name || j.job_id}`);
    const cells = Array.from({ length: 6 }, () => h('td', { class: 'num' }));
    const statusCell = h('td');
    const row: Row = h(
      'tr',
      null,
      h('th', { scope: 'row' }, h('a', { href: jobHref(j.job_id) }, j.name || j.job_id), h('div', { class: 'sub mono' }, j.job_id)),
      statusCell,
      h('td', { class: 'progress-cell' }, bar.el),
      ...cells,
    );
    let lastStatus = '';
    row.set = (x) => {
      if (x.status !== lastStatus) fill(statusCell, badge((lastStatus = x.status)));
      bar.set(jobPercent(x));
      const f = x.files;
      const texts = [
        `${num(f.completed + f.failed + f.skipped)} / ${num(f.discovered)}`,
        num(f.failed),
        num(x.pages.completed),
        num(x.throughput_pages_per_minute),
        x.eta_seconds === null ? '—' : duration(x.eta_seconds),
        shortTime(x.created_at),
      ];
      texts.forEach((t, i) => setText(cells[i]!, t));
    };
    return row;
  };

  async function refresh(): Promise<void> {
    try {
      const page = await api.jobs(status || undefined, limit);
      if (!ctx.alive) return;
      fill(problem);
      syncRows(
        tbody,
        page.jobs,
        (j) => j.job_id,
        createRow,
        (row, j) => row.set!(j),
      );
      empty.hidden = page.jobs.length > 0;
      more.hidden = !page.next_cursor;
      setText(updated, `Updated ${new Date().toLocaleTimeString('en-GB')}`);
    } catch (err) {
      if (ctx.alive) fill(problem, errorNote(err));
    }
  }
  ctx.every(POLL_MS, refresh);
};
