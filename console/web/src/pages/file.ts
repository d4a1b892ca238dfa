import { api, type FileDetail } from '../api.js';
import { badge, fill, h, setText, tableHead } from '../dom.js';
import { num, time } from '../format.js';
import { jobHref } from '../job-progress.js';
import { renderMmd } from '../mmd.js';
import { errorNote, section, type Page, type PageContext } from '../page.js';
import { openPdf, type PdfPreview } from '../pdf-preview.js';

const POLL_MS = 3_000;

/** One document of a job: status, page errors, conversion status per format and where its outputs are. */
export const filePage: Page = (main, ctx) => {
  const { id: jobId, doc } = ctx.params as { id: string; doc: string };
  const body = h('div');
  fill(main, h('p', { class: 'crumbs' }, h('a', { href: '#/jobs' }, 'Jobs'), ' / ', h('a', { href: jobHref(jobId), class: 'mono' }, jobId), ' / file'), body);
  let sig = '';
  // Built once per completed run (keyed by finished_at) and moved along on each redraw, so a poll
  // never throws away the drawn page or the rendered MMD.
  let preview: { key: string; el: HTMLElement } | null = null;
  ctx.every(POLL_MS, async () => {
    try {
      const f = await api.file(jobId, doc);
      if (!ctx.alive) return;
      const s = JSON.stringify(f);
      if (s === sig) return;
      sig = s;
      const key = f.status === 'completed' && f.outputs?.mmd ? `${f.finished_at}` : '';
      if (!key) preview = null;
      else if (preview?.key !== key) preview = { key, el: recognitionPreview(ctx, jobId, f) };
      fill(body, ...view(f, jobId, preview?.el ?? null));
      document.title = `${f.key} · Folio console`;
    } catch (err) {
      if (ctx.alive) fill(body, errorNote(err));
    }
  });
};

const pair = (k: string, v: Node | string) => [h('dt', null, k), h('dd', null, v)];

function view(f: FileDetail, jobId: string, preview: HTMLElement | null): (Node | null)[] {
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
        pair('Source', h('a', { href: api.sourcePath(jobId, f.document_id), download: fileNameOf(f.key) }, `Download ${fileNameOf(f.key)}`)),
      ),
    ),
    preview,
    section(
      'page-errors',
      'Page errors',
      errors.length
        ? h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              null,
              tableHead(['Page', 'Error id', 'Message']),
              h(
                'tbody',
                null,
                errors.map((e) =>
                  h('tr', null, h('td', { class: 'num' }, num(e.page)), h('td', null, h('code', null, e.error_id)), h('td', null, e.error_message)),
                ),
              ),
            ),
          )
        : h('p', { class: 'sub' }, 'No page errors.'),
    ),
    section(
      'conversions',
      'Conversion status per format',
      formats.length
        ? h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              null,
              tableHead(['Format', 'Status', 'Error id']),
              h(
                'tbody',
                null,
                formats.map(([fmt, s]) =>
                  h('tr', null, h('th', { scope: 'row' }, fmt), h('td', null, badge(s.status)), h('td', null, s.error_id ? h('code', null, s.error_id) : '—')),
                ),
              ),
            ),
          )
        : h('p', { class: 'sub' }, 'No conversion formats were requested for this job.'),
    ),
    section(
      'outputs',
      'Outputs',
      outputs.length
        ? h(
            'ul',
            { class: 'links' },
            outputs.map(([ext, uri]) =>
              h(
                'li',
                null,
                h(
                  'a',
                  { href: api.outputPath(jobId, f.document_id, ext), download: `${stemOf(fileNameOf(f.key))}.${ext}`, 'aria-label': `Download ${ext}` },
                  h('strong', null, ext),
                ),
                ' ',
                h('code', { class: 'uri' }, uri),
              ),
            ),
          )
        : h('p', { class: 'sub' }, f.status === 'completed' ? 'No outputs recorded.' : 'Outputs are listed once the file has completed.'),
    ),
  ];
}

const fileNameOf = (key: string) => key.slice(key.lastIndexOf('/') + 1) || 'document';
const stemOf = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);
const SOURCE_WIDTH = 560;

/**
 * The recognised MMD, rendered as on Try it, beside the source page it came from (pdf.js for PDFs,
 * the image itself for images), both read through the appliance's file routes: an operator judges
 * recognition quality by eye. A page selector switches the source page of multi-page documents.
 */
function recognitionPreview(ctx: PageContext, jobId: string, f: FileDetail): HTMLElement {
  const name = fileNameOf(f.key);
  const source = h('div', { class: 'try-source', id: 'file-source' });
  const caption = h('p', { class: 'sub', id: 'file-source-caption' }, 'Loading the source document…');
  const pager = h('div', { class: 'page-picker' });
  const rendered = h('div', { class: 'mmd-output', id: 'file-mmd', 'aria-live': 'polite' }, h('p', { class: 'sub' }, 'Rendering the MMD…'));
  const el = section(
    'recognition',
    'Recognised MMD beside the source',
    h(
      'div',
      { class: 'two-col' },
      h('div', null, h('p', { class: 'label' }, 'Source'), pager, source, caption),
      h('div', null, h('p', { class: 'label' }, 'Rendered MMD'), rendered),
    ),
  );

  void (async () => {
    try {
      const res = await fetch(api.outputPath(jobId, f.document_id, 'mmd'), { cache: 'no-store' });
      if (!res.ok) throw new Error(`the MMD could not be read (HTTP ${res.status})`);
      const html = await renderMmd(await res.text());
      if (ctx.alive) rendered.innerHTML = html;
    } catch (err) {
      if (ctx.alive) fill(rendered, h('p', { class: 'note note-bad', role: 'alert' }, String((err as Error).message ?? err)));
    }
  })();

  void (async () => {
    try {
      const res = await fetch(api.sourcePath(jobId, f.document_id), { cache: 'no-store' });
      if (!res.ok) throw new Error(`the source could not be read (HTTP ${res.status})`);
      const type = res.headers.get('content-type') ?? '';
      if (type.startsWith('image/')) {
        const url = URL.createObjectURL(await res.blob());
        ctx.onLeave(() => URL.revokeObjectURL(url));
        if (!ctx.alive) return;
        fill(source, h('img', { src: url, alt: `Source image ${name}` }));
        setText(caption, name);
        return;
      }
      if (!type.startsWith('application/pdf')) {
        setText(caption, `${name}: this type of source (${type.split(';')[0] || 'unknown'}) is not drawn here; download it above.`);
        return;
      }
      const pdf: PdfPreview = await openPdf(await res.arrayBuffer());
      if (!ctx.alive) return pdf.destroy();
      ctx.onLeave(() => pdf.destroy());
      const canvas = h('canvas', { role: 'img', 'aria-label': `Page 1 of ${name}` });
      fill(source, canvas);
      const show = async (n: number) => {
        canvas.setAttribute('aria-label', `Page ${n} of ${name}`);
        setText(caption, `${name}: drawing page ${n} of ${pdf.numPages}…`);
        await pdf.draw(n, canvas, Math.min(SOURCE_WIDTH, source.clientWidth || SOURCE_WIDTH));
        if (ctx.alive) setText(caption, `${name}: page ${n} of ${pdf.numPages}`);
      };
      if (pdf.numPages > 1) {
        const select = h(
          'select',
          {
            id: 'file-page',
            onchange: () => void show(Number(select.value)).catch((err: Error) => setText(caption, `${name}: the page could not be drawn (${err.message})`)),
          },
          Array.from({ length: pdf.numPages }, (_, i) => h('option', { value: i + 1 }, String(i + 1))),
        );
        fill(pager, h('label', { for: 'file-page' }, 'Source page '), select);
      }
      await show(1);
    } catch (err) {
      if (ctx.alive) setText(caption, `${name}: the source could not be drawn (${(err as Error).message})`);
    }
  })();
  return el;
}
