import './styles.css';
import { api } from './api.js';
import { fill, h } from './dom.js';
import { createPageContext, type Page } from './page.js';
import { filePage } from './pages/file.js';
import { jobPage } from './pages/job.js';
import { jobsPage } from './pages/jobs.js';
import { overviewPage } from './pages/overview.js';
import { probeV3, tryItPage } from './pages/try-it.js';
import { usagePage } from './pages/usage.js';

/** Hash routes: the appliance serves one index.html, so every view is a #/ address. */
const ROUTES: { pattern: RegExp; nav: string; page: Page; names: string[] }[] = [
  { pattern: /^\/?$/, nav: 'overview', page: overviewPage, names: [] },
  { pattern: /^\/jobs$/, nav: 'jobs', page: jobsPage, names: [] },
  { pattern: /^\/jobs\/([^/]+)$/, nav: 'jobs', page: jobPage, names: ['id'] },
  { pattern: /^\/jobs\/([^/]+)\/files\/([^/]+)$/, nav: 'jobs', page: filePage, names: ['id', 'doc'] },
  { pattern: /^\/usage$/, nav: 'usage', page: usagePage, names: [] },
  { pattern: /^\/try$/, nav: 'try', page: tryItPage, names: [] },
];

const main = document.getElementById('main')!;
let current: ReturnType<typeof createPageContext> | null = null;
let first = true;

function route(): void {
  const hash = location.hash;
  if (hash && !hash.startsWith('#/')) return; // an in-page anchor, not a view
  const path = hash.slice(1).split('?')[0]!;
  current?.leave();
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    if (a.dataset.route === match?.r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${match ? (document.querySelector('#nav a[aria-current]')?.textContent ?? '') : 'Not found'} · Folio console`;
  if (!match) {
    current = null;
    fill(main, h('h1', null, 'Not found'), h('p', null, 'No console page at this address. ', h('a', { href: '#/' }, 'Go to the overview.')));
    return;
  }
  const params = Object.fromEntries(match.r.names.map((n, i) => [n, decodeURIComponent(match.m![i + 1]!)]));
  current = createPageContext(params);
  void match.r.page(main, current);
  // After a click, move focus to the new content so keyboard and screen-reader users start there.
  if (!first) main.focus({ preventScroll: false });
  first = false;
}

document.querySelector('.skip-link')?.addEventListener('click', (ev) => {
  ev.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', route);
route();

void api.status().then(
  (s) => fill(document.getElementById('deployment')!, `${s.customer ? `${s.customer} · ` : ''}${s.deployment_id}`),
  () => undefined,
);
// Decided once at load, as the upload needs /v3/pdf: the nav says so when it is missing.
void probeV3().then((v3) => {
  if (!v3.pdf) document.querySelector('#nav a[data-route="try"]')?.setAttribute('title', 'Upload is not available in this build');
});
