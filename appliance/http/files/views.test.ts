import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import type { JobRow } from '../../files/jobs-ledger.js';
import { createdWindow, jobView, pageOf, parsePaging } from './views.js';

const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof ApiError ? [err.id, err.extras.field] : err;
  }
  return null;
};

describe('Files API listing parameters', () => {
  it("takes the client's limit and paging_state as page_size and page_token, never both", () => {
    const { page, next } = pageOf([{ rowid: 4 }, { rowid: 7 }, { rowid: 9 }], 2);
    expect(page).toHaveLength(2);
    expect(parsePaging({ limit: '2', paging_state: next! })).toEqual({ size: 2, cursor: 7 });
    expect(parsePaging({ page_size: '2', page_token: next! })).toEqual({ size: 2, cursor: 7 });
    expect(fieldOf(() => parsePaging({ limit: '0' }))).toEqual(['bad_request', 'limit']);
    expect(fieldOf(() => parsePaging({ limit: '5', page_size: '5' }))).toEqual(['bad_request', 'limit']);
    expect(fieldOf(() => parsePaging({ paging_state: 'not a token' }))).toEqual(['bad_request', 'paging_state']);
  });

  it('reads start and end as whole UTC days, both included, one alone as that day', () => {
    expect(createdWindow({ start: '2026-11-01', end: '2026-11-03' })).toEqual({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-04T00:00:00.000Z' });
    expect(createdWindow({ end: '2026-11-03' })).toEqual({ from: '2026-11-03T00:00:00.000Z', to: '2026-11-04T00:00:00.000Z' });
    expect(createdWindow({})).toEqual({ from: undefined, to: undefined });
    expect(fieldOf(() => createdWindow({ start: '2026-11-01T10:00:00Z' }))).toEqual(['bad_request', 'start']);
    expect(fieldOf(() => createdWindow({ start: '2026-11-01', from_date: '2026-11-01' }))).toEqual(['bad_request', 'start']);
  });
});

describe('jobView', () => {
  const job = (over: Partial<JobRow>): JobRow => ({
    job_id: 'j',
    app_id: 'a',
    group_id: 'g',
    status: 'open',
    file_count: 3,
    files_completed: 0,
    files_errored: 0,
    num_pages_sent: 0,
    num_pages_completed: 0,
    callback: null,
    replay_file_count: null,
    created_at: '',
    modified_at: '',
    completion_due_at: null,
    ...over,
  });

  it('reads completed once every file settled, finalized or not, and shows finalization apart', () => {
    expect(jobView(job({ files_completed: 2 }))).toMatchObject({ status: 'processing', finalized: false });
    expect(jobView(job({ files_completed: 2, files_errored: 1 }))).toMatchObject({ status: 'completed', finalized: false });
    expect(jobView(job({ status: 'finalized', files_completed: 1 }))).toMatchObject({ status: 'processing', finalized: true });
    expect(jobView(job({ status: 'completed', files_completed: 3 }))).toMatchObject({ status: 'completed', finalized: true });
  });
});
