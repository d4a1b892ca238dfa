import { fill, h } from '../dom.js';
import { renderMmd } from '../mmd.js';
import { type Page } from '../page.js';
import { uploadForm } from './try-upload.js';

export interface V3Surface {
  /** POST /v3/pdf answers: documents can be uploaded. */
  pdf: boolean;
  /** POST /v3/text answers: images can be uploaded too. */
  text: boolean;
}
let v3: Promise<V3Surface> | null = null;

/**
 * Decided once at load. A POST without credentials is refused before anything is created: 404
 * means this build has no such route, anything else (401…) means it is there.
 */
export function probeV3(): Promise<V3Surface> {
  const answers = (path: string) =>
    fetch(path, { method: 'POST', cache: 'no-store' }).then(
      (r) => r.status !== 404,
      () => false,
    );
  v3 ??= Promise.all([answers('/v3/pdf'), answers('/v3/text')]).then(([pdf, text]) => ({ pdf, text }));
  return v3;
}

const SAMPLE = String.raw`\section*{Quadratic formula}

The roots of \(a x^{2}+b x+c=0\) are

$$
x=\frac{-b \pm \sqrt{b^{2}-4 a c}}{2 a}
$$`;

/** Try it: upload an image or PDF and see the MMD rendered; and a preview for pasted MMD. */
export const tryItPage: Page = async (main, ctx) => {
  const uploadSlot = h('div', null, h('p', { class: 'sub' }, 'Checking whether this build answers /v3/pdf…'));
  const source = h('textarea', { id: 'mmd-source', rows: 8, spellcheck: false }, SAMPLE);
  const output = h('div', { class: 'mmd-output', id: 'mmd-output', 'aria-live': 'polite' });
  const render = async () => {
    fill(output, h('p', { class: 'sub' }, 'Rendering…'));
    try {
      const html = await renderMmd(source.value);
      if (ctx.alive) output.innerHTML = html;
    } catch (err) {
      if (ctx.alive) fill(output, h('p', { class: 'note note-bad', role: 'alert' }, String(err)));
    }
  };
  fill(
    main,
    h('h1', null, 'Try it'),
    h('section', { class: 'panel', 'aria-labelledby': 'upload-h' }, h('h2', { id: 'upload-h' }, 'Upload a document'), uploadSlot),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'preview-h' },
      h('h2', { id: 'preview-h' }, 'Preview MMD'),
      h('p', { class: 'sub' }, 'Paste Mathpix Markdown to see how the console renders it (in this browser; nothing is sent to the appliance).'),
      h(
        'div',
        { class: 'two-col' },
        h('div', null, h('label', { for: 'mmd-source' }, 'MMD source'), source, h('button', { type: 'button', onclick: () => void render() }, 'Render')),
        h('div', null, h('p', { class: 'label' }, 'Rendered'), output),
      ),
    ),
  );
  void render();
  const surface = await probeV3();
  if (!ctx.alive) return;
  fill(
    uploadSlot,
    surface.pdf
      ? uploadForm(ctx, surface)
      : h(
          'p',
          { class: 'note', id: 'try-unavailable' },
          'Uploading is not available in this build: the appliance does not answer /v3/pdf yet. The preview below shows how recognised MMD will be rendered.',
        ),
  );
};
