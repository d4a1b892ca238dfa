import { api, ConsoleApiError } from '../api.js';
import { h } from '../dom.js';

/** The Cancel button and its confirmation <dialog> (native: focus moves in, Escape closes). */
export function cancelDialog(jobId: string, announce: (msg: string, bad?: boolean) => void, after: () => void) {
  const confirm = h('button', { type: 'button', class: 'danger', onclick: () => void doCancel() }, 'Cancel job');
  const keep = h('button', { type: 'button', class: 'secondary', autofocus: true, onclick: () => dialog.close() }, 'Keep running');
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'cancel-h', 'aria-describedby': 'cancel-d' },
    h('h2', { id: 'cancel-h' }, 'Cancel this job?'),
    h(
      'p',
      { id: 'cancel-d' },
      'Enumeration stops and queued files are skipped (error id cancelled). Files already being processed finish and are recorded. A cancelled job cannot be retried.',
    ),
    h('div', { class: 'toolbar' }, keep, confirm),
  );
  const button = h('button', { type: 'button', class: 'danger-outline', onclick: () => dialog.showModal() }, 'Cancel job…');

  async function doCancel(): Promise<void> {
    confirm.disabled = true;
    try {
      const job = await api.cancel(jobId);
      announce(`Job ${job.status === 'cancelled' ? 'cancelled' : `already ${job.status.replaceAll('_', ' ')}`}.`);
      after();
    } catch (err) {
      announce(`Cancel failed: ${(err as ConsoleApiError).message}`, true);
    } finally {
      confirm.disabled = false;
      dialog.close();
      button.focus();
    }
  }
  return {
    button,
    dialog,
    setEnabled(on: boolean) {
      button.disabled = !on;
      button.title = on ? '' : 'Only a running job can be cancelled';
    },
  };
}
