import { api, FILE_STATUSES, type JobFile } from '../api.js';
import { badge, fill, h, syncRows, tableHead } from '../dom.js';
import { num, shortTime } from '../format.js';
import { fileHref } from '../job-progress.js';
import { errorNote } from '../page.js';

/** The job's files, one status at a time, 100 a page: the way into a single file's view. */
export function filesPanel(jobId: string) {
  let status = 'completed';
  let cursors: (string | undefined)[] = [undefined];
  const select = h(
    'select',
    {
      id: 'file-status',
      onchange: () => {
        status = select.value;
        cursors = [undefined];
        void load();
      },
    },
    FILE_STATUSES.map((s) => h('option', { value: s, selected: s === status }, s)),
  );
  const tbody = h('tbody');
  const note = h('div');
  const prev = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        cursors.pop();
        void load();
      },
    },
    'Previous 100',
  );
  const next = h('button', { type: 'button', class: 'secondary', onclick: () => void load(nextCursor) }, 'Next 100');
  let nextCursor: string | undefined;

  async function load(cursor?: string): Promise<void> {
    try {
      if (cursor) cursors.push(cursor);
      const page = await api.files(jobId, status, cursors.at(-1));
      nextCursor = page.next_cursor ?? undefined;
      fill(note, page.files.length ? null : h('p', { class: 'sub' }, `No ${status} files.`));
      syncRows(
        tbody,
        page.files,
        (f) => f.document_id,
        () => h('tr'),
        (row, f: JobFile) =>
          fill(
            row,
            h('th', { scope: 'row' }, h('a', { href: fileHref(jobId, f.document_id) }, f.key)),
            h('td', null, badge(f.status)),
            h('td', { class: 'num' }, num(f.pages)),
            h('td', { class: 'num' }, num(f.pages_failed)),
            h('td', null, f.error_id ? h('code', null, f.error_id) : '—'),
            h('td', { class: 'nowrap', title: f.finished_at ?? '' }, shortTime(f.finished_at)),
          ),
      );
      prev.hidden = cursors.length <= 1;
      next.hidden = !nextCursor;
    } catch (err) {
      fill(note, errorNote(err));
    }
  }

  const el = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'files-h' },
    h('h2', { id: 'files-h' }, 'Files'),
    h('div', { class: 'toolbar' }, h('label', { for: 'file-status' }, 'Status'), select),
    h('div', { class: 'table-wrap' }, h('table', null, tableHead(['File', 'Status', 'Pages', 'Pages failed', 'Error', 'Finished']), tbody)),
    note,
    h('div', { class: 'toolbar' }, prev, next),
  );
  return { el, reload: () => load() };
}
