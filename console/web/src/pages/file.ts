import { api, type FileDetail } from '../api.js';
import { badge, fill, h } from '../dom.js';
import { num, time } from '../format.js';
import { jobHref } from '../job-progress.js';
import { errorNote, section, type Page } from '../page.js';

const POLL_MS = 3_000;

/** One document of a job: status, page errors, conversion status per format and where its outputs are. */
export const filePage: Page = (main, ctx) => {
  const { id: jobId, doc } = ctx.params as { id: string; doc: string };
  const body = h('div');
  fill(main, h('p', { class: 'crumbs' }, h('a', { href: '#/jobs' }, 'Jobs'), ' / ', h('a', { href: jobHref(jobId), class: 'mono' }, jobId), ' / file'), body);
  let sig = '';
  ctx.every(POLL_MS, async () => {
    try {
      const f = await api.file(jobId, doc);
      if (!ctx.alive) return;
      const s = JSON.stringify(f);
      if (s === sig) return;
      sig = s;
      fill(body, ...view(f));
      document.title = `${f.key} · Folio console`;
    } catch (err) {
      if (ctx.alive) fill(body, errorNote(err));
    }
  });
};

const pair = (k: string, v: Node | string) => [h('dt', null, k), h('dd', null, v)];

function view(f: FileDetail): Node[] {
  const outputs = Object.entries(f.outputs ?? {});
  const formats = Object.entries(f.conversion_status ?? {});
  const errors = f.page_errors ?? [];
  return [
    h('div', { class: 'title-row' }, h('h1', { class: 'file-title' }, f.key), badge(f.status)),
    section(
      'file-summary',
      'Summary',
      h(
        'dl',
        { class: 'pairs pairs-wide' },
        pair('Document id', h('code', null, f.document_id)),
        pair('Pages', `${num(f.pages)} (${num(f.pages_failed)} failed)`),
        pair('Attempts', num(f.attempts)),
        f.error_id ? pair('Error', h('span', null, h('code', null, f.error_id), f.error_message ? ` — ${f.error_message}` : '')) : null,
        pair('Started', time(f.started_at)),
        pair('Finished', time(f.finished_at)),
        pair('Versions', `OCR ${f.versions.ocr_version} · PDF ${f.versions.pdf_version}`),
      ),
    ),
    section(
      'page-errors',
      'Page errors',
      errors.length
        ? h('div', { class: 'table-wrap' }, h('table', null, h('thead', null, h('tr', null, ['Page', 'Error id', 'Message'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', null, errors.map((e) => h('tr', null, h('td', { class: 'num' }, num(e.page)), h('td', null, h('code', null, e.error_id)), h('td', null, e.error_message))))))
        : h('p', { class: 'sub' }, 'No page errors.'),
    ),
    section(
      'conversions',
      'Conversion status per format',
      formats.length
        ? h('div', { class: 'table-wrap' }, h('table', null, h('thead', null, h('tr', null, ['Format', 'Status', 'Error id'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', null, formats.map(([fmt, s]) => h('tr', null, h('th', { scope: 'row' }, fmt), h('td', null, badge(s.status)), h('td', null, s.error_id ? h('code', null, s.error_id) : '—'))))))
        : h('p', { class: 'sub' }, 'No conversion formats were requested for this job.'),
    ),
    section(
      'outputs',
      'Outputs',
      outputs.length
        ? h('ul', { class: 'links' }, outputs.map(([ext, uri]) => h('li', null, h('strong', null, ext), ' ', /^https?:\/\//.test(uri) ? h('a', { href: uri }, uri) : h('code', { class: 'uri' }, uri))))
        : h('p', { class: 'sub' }, f.status === 'completed' ? 'No outputs recorded.' : 'Outputs are listed once the file has completed.'),
      outputs.length
        ? h('p', { class: 'note' }, 'These are storage locations. This build has no HTTP route that reads a job’s outputs or source pages, so the rendered MMD and the page image cannot be shown here yet; open the files from the output folder.')
        : null,
    ),
  ];
}
