import { fill, h, setText } from '../dom.js';
import { renderMmd } from '../mmd.js';
import { drawFirstPage } from '../pdf-preview.js';
import type { PageContext } from '../page.js';
import type { V3Surface } from './try-it.js';

const POLL_MS = 1_500;

/**
 * Upload through the appliance's own /v3 API with an app_id and app_key (made with POST /pco/v1/apps
 * and …/keys). The keys stay in this form, never stored. Documents go to POST /v3/pdf, then the MMD
 * comes from GET /v3/pdf/{id}.mmd; images go to POST /v3/text when this build has it.
 */
export function uploadForm(ctx: PageContext, v3: V3Surface): HTMLElement {
  const appId = h('input', { id: 'try-app-id', name: 'app_id', autocomplete: 'off', required: true });
  const appKey = h('input', { id: 'try-app-key', name: 'app_key', type: 'password', autocomplete: 'off', required: true });
  const file = h('input', { id: 'try-file', name: 'file', type: 'file', accept: v3.text ? 'image/*,application/pdf' : 'application/pdf', required: true });
  const status = h('p', { role: 'status', class: 'sub' });
  const source = h('div', { class: 'try-source' });
  const rendered = h('div', { class: 'mmd-output', id: 'try-output' });
  const submit = h('button', { type: 'submit' }, 'Recognise');

  const headers = () => ({ app_id: appId.value, app_key: appKey.value });
  const fail = (msg: string) => setText(status, msg);

  async function run(f: File): Promise<void> {
    const isImage = f.type.startsWith('image/');
    if (isImage && !v3.text) return fail('Images need POST /v3/text, which this build does not have yet; upload a PDF.');
    if (isImage) fill(source, h('img', { src: URL.createObjectURL(f), alt: `Uploaded image ${f.name}` }));
    else {
      const canvas = h('canvas', { role: 'img', 'aria-label': `First page of ${f.name}` });
      const caption = h('p', { class: 'sub' }, `${f.name} (${Math.round(f.size / 1024)} KB)`);
      fill(source, canvas, caption);
      drawFirstPage(await f.arrayBuffer(), canvas, Math.min(560, source.clientWidth || 560)).then(
        (pages) => setText(caption, `${f.name}: page 1 of ${pages}`),
        (err: Error) => setText(caption, `${f.name}: the page could not be drawn (${err.message})`),
      );
    }
    const body = new FormData();
    body.append('file', f);
    body.append('options_json', JSON.stringify(isImage ? { formats: ['text'] } : {}));
    setText(status, 'Uploading…');
    const res = await fetch(isImage ? '/v3/text' : '/v3/pdf', { method: 'POST', headers: headers(), body });
    const json = (await res.json().catch(() => ({}))) as { text?: string; pdf_id?: string; error?: string; error_info?: { message?: string } };
    if (!res.ok || json.error) return fail(`Refused: ${json.error_info?.message ?? json.error ?? `HTTP ${res.status}`}`);
    let mmd = json.text ?? '';
    if (!isImage) {
      const id = json.pdf_id!;
      for (;;) {
        if (!ctx.alive) return;
        const s = (await (await fetch(`/v3/pdf/${encodeURIComponent(id)}`, { headers: headers(), cache: 'no-store' })).json()) as {
          status?: string;
          percent_done?: number;
          error?: string;
        };
        if (s.status === 'completed') break;
        if (s.status === 'error') return fail(`Processing failed: ${s.error ?? 'error'}`);
        setText(status, `Processing ${id}: ${Math.round(s.percent_done ?? 0)} %`);
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      const out = await fetch(`/v3/pdf/${encodeURIComponent(id)}.mmd`, { headers: headers(), cache: 'no-store' });
      if (!out.ok) return fail(`The MMD could not be downloaded (HTTP ${out.status}).`);
      mmd = await out.text();
    }
    setText(status, 'Done.');
    rendered.innerHTML = await renderMmd(mmd);
  }

  return h(
    'div',
    null,
    h(
      'form',
      {
        class: 'form-grid',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          const f = file.files?.[0];
          if (f) run(f).catch((err: Error) => fail(`Failed: ${err.message}`));
        },
      },
      h('label', { for: 'try-app-id' }, 'app_id'),
      appId,
      h('label', { for: 'try-app-key' }, 'app_key'),
      appKey,
      h('label', { for: 'try-file' }, v3.text ? 'Image or PDF' : 'PDF'),
      file,
      h('div', null, submit),
    ),
    status,
    h(
      'div',
      { class: 'two-col' },
      h('div', null, h('p', { class: 'label' }, 'Source'), source),
      h('div', null, h('p', { class: 'label' }, 'Recognised MMD, rendered'), rendered),
    ),
  );
}
