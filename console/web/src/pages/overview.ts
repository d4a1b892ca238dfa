import { api, TERMINAL_JOB_STATUSES, type Health, type License, type Status } from '../api.js';
import { lineChart } from '../chart.js';
import { badge, fill, h } from '../dom.js';
import { duration, num, time, utcDay } from '../format.js';
import { pagesRate } from '../metrics.js';
import { errorNote, section, type Page } from '../page.js';

const REFRESH_MS = 5_000;

/** Health, workers, queues, licence, throughput and today's billable usage on one screen. */
export const overviewPage: Page = (main, ctx) => {
  const healthBox = h('div');
  const queueBox = h('div');
  const licenseBox = h('div');
  const usageBox = h('div');
  const rateText = h('p', { class: 'big-number', id: 'rate-now' });
  const chart = lineChart('Pages completed per minute over the last hour, as recorded by the appliance.', 'pages/min');
  const aboutBox = h('div');
  ctx.onLeave(() => chart.destroy());

  fill(
    main,
    h('h1', null, 'Overview'),
    h(
      'div',
      { class: 'grid' },
      section('health', 'Health', healthBox),
      section('queues', 'Queues', queueBox),
      section('licence', 'Licence', licenseBox),
      section('today', 'Billable usage today (UTC)', usageBox),
      h('section', { class: 'panel span-2', 'aria-labelledby': 'throughput-h' }, h('h2', { id: 'throughput-h' }, 'Throughput'), rateText, chart.el),
    ),
    section('about', 'Deployment', aboutBox),
  );

  ctx.every(REFRESH_MS, async () => {
    const [health, status, license, usage, jobs, history] = await Promise.allSettled([
      api.health(),
      api.status(),
      api.license(),
      api.usage(utcDay(), utcDay()),
      api.jobs('processing', 200),
      api.throughput(60),
    ]);
    const sampled = pagesRate.sample().catch(() => undefined);
    if (!ctx.alive) return;
    fill(healthBox, health.status === 'fulfilled' ? healthView(health.value) : errorNote(health.reason));
    fill(queueBox, status.status === 'fulfilled' ? queuesView(status.value) : errorNote(status.reason));
    fill(licenseBox, license.status === 'fulfilled' ? licenseView(license.value) : errorNote(license.reason));
    if (usage.status === 'fulfilled') {
      const t = usage.value.totals;
      fill(
        usageBox,
        h('p', { class: 'big-number' }, num(t.pages_billable + t.images_billable), h('span', { class: 'unit' }, ' billable units')),
        h(
          'dl',
          { class: 'pairs' },
          pair('Pages billable', num(t.pages_billable)),
          pair('Images billable', num(t.images_billable)),
          pair('Pages completed', num(t.pages_completed)),
          pair('Pages failed', num(t.pages_failed)),
        ),
        h('p', null, h('a', { href: '#/usage' }, 'Usage by day')),
      );
    } else fill(usageBox, errorNote(usage.reason));
    if (status.status === 'fulfilled') fill(aboutBox, aboutView(status.value));

    await sampled;
    if (!ctx.alive) return;
    const avg = history.status === 'fulfilled' ? history.value.pages_per_minute_avg : null;
    const running = jobs.status === 'fulfilled' ? jobs.value.jobs.filter((j) => !TERMINAL_JOB_STATUSES.includes(j.status)) : [];
    const jobRate = running.reduce((n, j) => n + j.throughput_pages_per_minute, 0);
    fill(
      rateText,
      num(Math.round(pagesRate.points.at(-1)?.pagesPerMinute ?? 0)),
      h('span', { class: 'unit' }, ' pages/min now'),
      h(
        'span',
        { class: 'sub' },
        ` · hour average ${avg === null ? '—' : num(Math.round(avg))} · ${running.length} running job${running.length === 1 ? '' : 's'} at ${num(Math.round(jobRate))} pages/min`,
      ),
    );
    if (history.status === 'fulfilled') {
      chart.set(
        history.value.minutes.map((m) => Date.parse(m.minute) / 1000),
        history.value.minutes.map((m) => m.pages_completed),
      );
    }
  });
};

const pair = (k: string, v: Node | string) => [h('dt', null, k), h('dd', null, v)];

function workers(alive: number, expected: number): HTMLElement {
  const state = expected === 0 ? 'plain' : alive >= expected ? 'ok' : alive === 0 ? 'bad' : 'warn';
  return h('span', { class: `badge badge-${state}` }, `${alive} of ${expected} alive`);
}

function healthView(s: Health): Node[] {
  const conn = (ok: boolean) => h('span', { class: `badge badge-${ok ? 'ok' : 'bad'}` }, ok ? 'connected' : 'not answering');
  return [
    h('p', { class: 'big-status' }, 'Appliance ', badge(s.status)),
    h(
      'dl',
      { class: 'pairs', 'aria-label': 'Components' },
      pair('State store (Redis)', conn(s.redis_connected)),
      pair('Storage', conn(s.storage_connected)),
      pair('GPU workers', workers(s.gpu_workers_alive, s.gpu_workers_expected)),
      pair('Document workers', workers(s.document_workers_alive, s.document_workers_expected)),
      pair('Text requests', `${num(s.text_requests_in_flight)} in flight of ${num(s.text_requests_max)}`),
    ),
  ];
}

function queuesView(s: Status): Node[] {
  const q = s.queue_depths;
  return [
    h('dl', { class: 'pairs' }, pair('Jobs', num(q.jobs)), pair('Documents', num(q.documents)), pair('Pages', num(q.pages))),
    h('p', { class: 'sub' }, 'Tasks waiting, delayed or active.'),
  ];
}

function licenseView(l: License): Node[] {
  const left = l.grace_ends_at ? (Date.parse(l.grace_ends_at) - Date.now()) / 1000 : null;
  const explain: Record<string, string> = {
    verified: 'The last licence check succeeded.',
    grace: 'Checks are failing or have not run yet; processing continues until grace ends.',
    blocked: 'Grace has ended: new jobs and documents are refused until a check succeeds.',
    not_enforced: 'Air-gapped build: the licence is not checked online.',
    unknown: 'The state store does not answer; the licence state cannot be read.',
  };
  return [
    h('p', { class: 'big-status' }, badge(l.status)),
    h('p', null, explain[l.status] ?? ''),
    h(
      'dl',
      { class: 'pairs' },
      l.status === 'grace' ? pair('Time left in grace', h('strong', { id: 'grace-left' }, left === null ? '—' : left > 0 ? duration(left) : 'ended')) : null,
      pair('Mode', l.license_mode.replaceAll('_', ' ')),
      pair('Last verified', time(l.last_verified_at)),
      l.grace_ends_at ? pair('Grace ends', time(l.grace_ends_at)) : null,
      l.expires_at ? pair('Expires', time(l.expires_at)) : null,
      l.last_error ? pair('Last error', h('code', null, l.last_error)) : null,
    ),
  ];
}

function aboutView(s: Status): Node {
  return h(
    'dl',
    { class: 'pairs pairs-wide' },
    pair('Customer', s.customer || '—'),
    pair('Deployment', s.deployment_id),
    pair('Build', s.build_id),
    pair('Versions', `OCR ${s.ocr_version} · PDF ${s.pdf_version} · API v${s.api_version}`),
    pair('Up for', duration(s.uptime_seconds)),
    pair(
      'Metering',
      `${s.metering.mode.replaceAll('_', ' ')}${s.metering.last_report_at ? `, last report ${time(s.metering.last_report_at)}` : ''}${s.metering.days_pending ? `, ${s.metering.days_pending} day${s.metering.days_pending === 1 ? '' : 's'} pending` : ''}`,
    ),
  );
}
