import { allFailedFiles, api, ConsoleApiError, type Job, type JobFile } from '../api.js';
import { fill, h } from '../dom.js';
import { num } from '../format.js';
import { fileHref } from '../job-progress.js';

/** Spec 3.8: retry is accepted once the job has ended, unless it was cancelled. */
export const canRetry = (status: string) => ['completed', 'completed_with_failures', 'error'].includes(status);

/**
 * Failed files grouped by error id, each group with a Retry button that requeues that id only
 * (POST retry {error_ids:[id]}). Re-rendered only when the failures change, so focus stays put.
 */
export function failuresPanel(jobId: string, announce: (msg: string, bad?: boolean) => void, afterRetry: () => void) {
  const body = h('div');
  const el = h('section', { class: 'panel', 'aria-labelledby': 'failed-h' }, h('h2', { id: 'failed-h' }, 'Failed files'), body);
  let signature = '';
  let buttons: HTMLButtonElement[] = [];
  let busy = false;

  async function retry(errorId: string, count: number) {
    busy = true;
    buttons.forEach((b) => (b.disabled = true));
    try {
      const r = await api.retry(jobId, [errorId]);
      announce(`Retry requested for ${errorId}: ${num(r.requeued)} file${r.requeued === 1 ? '' : 's'} requeued (of ${num(count)} shown).`);
      afterRetry();
    } catch (err) {
      const e = err as ConsoleApiError;
      announce(e.id === 'job_not_retryable' ? `Not retried: ${e.message}` : `Retry failed: ${e.message} (${e.id})`, true);
    } finally {
      busy = false;
    }
  }

  return {
    el,
    async update(job: Job): Promise<void> {
      const files = job.files.failed > 0 ? await allFailedFiles(jobId) : [];
      const retryable = canRetry(job.status);
      const sig = JSON.stringify([retryable, files.map((f) => [f.document_id, f.error_id, f.attempts])]);
      if (sig === signature) {
        buttons.forEach((b) => (b.disabled = busy || !retryable));
        return;
      }
      signature = sig;
      if (!files.length) {
        buttons = [];
        fill(body, h('p', { class: 'sub' }, job.files.failed ? 'Loading…' : 'No failed files.'));
        return;
      }
      const groups = new Map<string, JobFile[]>();
      for (const f of files) {
        const id = f.error_id ?? 'unknown';
        groups.set(id, [...(groups.get(id) ?? []), f]);
      }
      buttons = [];
      fill(
        body,
        retryable ? null : h('p', { class: 'sub' }, 'Retry becomes available when the job has finished (a cancelled job cannot be retried).'),
        [...groups].map(([errorId, list]) => {
          const button = h(
            'button',
            { type: 'button', disabled: busy || !retryable, 'aria-describedby': `grp-${errorId}-h`, onclick: () => void retry(errorId, list.length) },
            `Retry ${list.length === 1 ? '1 file' : `${num(list.length)} files`}`,
          );
          buttons.push(button);
          return h(
            'section',
            { class: 'error-group', 'data-error-id': errorId, 'aria-labelledby': `grp-${errorId}-h` },
            h(
              'div',
              { class: 'group-head' },
              h('h3', { id: `grp-${errorId}-h` }, h('code', null, errorId), ` — ${num(list.length)} file${list.length === 1 ? '' : 's'}`),
              button,
            ),
            h(
              'ul',
              { class: 'file-list' },
              list
                .slice(0, 50)
                .map((f) =>
                  h(
                    'li',
                    null,
                    h('a', { href: fileHref(jobId, f.document_id) }, f.key),
                    h('span', { class: 'sub' }, ` · attempt ${f.attempts}${f.error_message ? ` · ${f.error_message}` : ''}`),
                  ),
                ),
              list.length > 50 ? h('li', { class: 'sub' }, `and ${num(list.length - 50)} more (see the report)`) : null,
            ),
          );
        }),
      );
    },
  };
}
