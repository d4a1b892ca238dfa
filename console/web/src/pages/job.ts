import { api, TERMINAL_JOB_STATUSES, type Job } from '../api.js';
import { lineChart } from '../chart.js';
import { badge, fill, h, progressBar, setText } from '../dom.js';
import { duration, num, time } from '../format.js';
import { jobPercent } from '../job-progress.js';
import { errorNote, type Page } from '../page.js';
import { cancelDialog } from './cancel-dialog.js';
import { filesPanel } from './job-files.js';
import { failuresPanel } from './job-failures.js';

const POLL_MS = 2_000;

/** One job: counters, throughput and ETA, pages over time, failures with retry, cancel, report. */
export const jobPage: Page = (main, ctx) => {
  const jobId = ctx.params.id!;
  const title = h('h1', null, 'Job');
  const statusSlot = h('span');
  const bar = progressBar('Job progress');
  const live = h('p', { class: 'live', role: 'status', 'aria-live': 'polite' });
  const problem = h('div');
  const counters = h('div', { class: 'counters' });
  const links = h('div');
  const chart = lineChart('Pages completed over time: none when the job started, then sampled every 2 s while this page is open.', 'pages');
  const series: { t: number[]; y: number[] } = { t: [], y: [] };
  ctx.onLeave(() => chart.destroy());

  const announce = (msg: string, bad = false) => {
    live.className = bad ? 'live note note-bad' : 'live note';
    setText(live, msg);
  };
  const failures = failuresPanel(jobId, announce, () => void refresh());
  const files = filesPanel(jobId);
  const cancel = cancelDialog(jobId, announce, () => void refresh());

  fill(
    main,
    h('p', { class: 'crumbs' }, h('a', { href: '#/jobs' }, 'Jobs'), ' / ', h('span', { class: 'mono' }, jobId)),
    h('div', { class: 'title-row' }, title, statusSlot),
    h('div', { class: 'progress-row' }, bar.el),
    h('div', { class: 'toolbar job-actions' }, links, cancel.button),
    live,
    problem,
    h('section', { class: 'panel', 'aria-labelledby': 'counters-h' }, h('h2', { id: 'counters-h' }, 'Counters'), counters),
    failures.el,
    h('section', { class: 'panel', 'aria-labelledby': 'chart-h' }, h('h2', { id: 'chart-h' }, 'Pages over time'), chart.el),
    files.el,
    cancel.dialog,
  );

  let lastSig = '';
  async function refresh(): Promise<void> {
    let job: Job;
    try {
      job = await api.job(jobId);
    } catch (err) {
      if (ctx.alive) fill(problem, errorNote(err));
      return;
    }
    if (!ctx.alive) return;
    fill(problem);
    setText(title, job.name || 'Unnamed job');
    document.title = `${job.name || jobId} · Folio console`;
    if (statusSlot.textContent !== job.status.replaceAll('_', ' ')) fill(statusSlot, badge(job.status));
    bar.set(jobPercent(job));
    cancel.setEnabled(!TERMINAL_JOB_STATUSES.includes(job.status));
    renderCounters(counters, job);
    renderLinks(links, job);

    if (!series.t.length && job.started_at) {
      series.t.push(Date.parse(job.started_at) / 1000);
      series.y.push(0);
    }
    series.t.push(Date.now() / 1000);
    series.y.push(job.pages.completed);
    chart.set(series.t, series.y);

    const sig = JSON.stringify([job.status, job.files]);
    if (sig !== lastSig) {
      lastSig = sig;
      await Promise.all([failures.update(job), files.reload()]);
    }
  }
  ctx.every(POLL_MS, refresh);
};

function renderCounters(el: HTMLElement, j: Job): void {
  const f = j.files;
  const cells: [string, string][] = [
    ['Discovered', num(f.discovered)],
    ['Queued', num(f.queued)],
    ['Processing', num(f.processing)],
    ['Completed', num(f.completed)],
    ['Failed', num(f.failed)],
    ['Skipped', num(f.skipped)],
    ['Pages completed', num(j.pages.completed)],
    ['Pages failed', num(j.pages.failed)],
    ['Pages per minute', num(j.throughput_pages_per_minute)],
    ['ETA', j.eta_seconds === null ? (TERMINAL_JOB_STATUSES.includes(j.status) ? '—' : 'estimating…') : duration(j.eta_seconds)],
    ['Enumeration', `${j.enumeration.status.replaceAll('_', ' ')}: ${num(j.enumeration.files_listed)} listed, ${num(j.enumeration.files_excluded)} excluded`],
    ['Created', time(j.created_at)],
    ['Started', time(j.started_at)],
    ['Finished', time(j.finished_at)],
  ];
  if (!el.firstChild)
    fill(
      el,
      h(
        'dl',
        { class: 'stat-grid' },
        cells.map(([k]) => h('div', { class: 'stat' }, h('dt', null, k), h('dd'))),
      ),
    );
  const dds = el.querySelectorAll('dd');
  cells.forEach(([, v], i) => setText(dds[i]!, v));
}

function renderLinks(el: HTMLElement, j: Job): void {
  const manifest = j.output.manifest_uri;
  const sig = `${manifest}|${j.output.folder}`;
  if (el.dataset.sig === sig) return;
  el.dataset.sig = sig;
  const isHttp = (u: string) => /^https?:\/\//.test(u);
  fill(
    el,
    h(
      'ul',
      { class: 'links' },
      h('li', null, h('a', { href: api.reportPath(j.job_id), download: `report-${j.job_id}.ndjson`, type: 'application/x-ndjson' }, 'Download NDJSON report')),
      h(
        'li',
        null,
        'Manifest: ',
        manifest
          ? isHttp(manifest)
            ? h('a', { href: manifest }, manifest)
            : h('code', { class: 'uri' }, manifest)
          : h('span', { class: 'sub' }, 'written when the job finishes'),
      ),
      h('li', null, 'Output folder: ', h('code', { class: 'uri' }, j.output.folder), ` (${j.output.layout})`),
      j.error_info ? h('li', { class: 'note-bad' }, `Job error: ${j.error_info.id} — ${j.error_info.message}`) : null,
    ),
    manifest && !isHttp(manifest) ? h('p', { class: 'sub' }, 'The manifest lives in storage; the appliance does not serve it over HTTP.') : null,
  );
}
