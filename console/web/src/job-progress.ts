import type { Job } from './api.js';

/** Share of discovered files that reached an end state; a finished job reads 100 %. */
export function jobPercent(j: Pick<Job, 'status' | 'files' | 'enumeration'>): number {
  if (j.status === 'completed' || j.status === 'completed_with_failures') return 100;
  const f = j.files;
  const done = f.completed + f.failed + f.skipped;
  return f.discovered > 0 ? (done / f.discovered) * 100 : 0;
}

export const jobHref = (id: string) => `#/jobs/${encodeURIComponent(id)}`;
export const fileHref = (id: string, doc: string) => `#/jobs/${encodeURIComponent(id)}/files/${encodeURIComponent(doc)}`;
