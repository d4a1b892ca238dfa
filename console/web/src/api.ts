// The console reads only what the appliance already serves (/health, /metrics, /pco/v1): one source
// of truth. Types come from the CLI's type-only views, so `tsc` fails here when a body changes shape.
import type { FilePage, Health, Job, JobFile, JobPage, License, Status, Usage } from '../../api-types.js';

export type { Health, Job, JobFile, License, Status, Usage };
export type JobStatus = Job['status'];
export type FileDetail = JobFile & {
  page_errors: { page: number; error_id: string; error_message: string }[];
  conversion_status: Record<string, { status: string; error_id?: string }>;
  versions: { ocr_version: string; pdf_version: string };
};
export type UsageExport = Usage & {
  statement_version: number | string;
  exported_at: string;
  deployment_id: string;
  customer: string;
  build_id: string;
  license_mode: string;
  metering_mode: string;
};

export const JOB_STATUSES = ['enumerating', 'processing', 'completed', 'completed_with_failures', 'cancelled', 'error'] as const;
export const FILE_STATUSES = ['queued', 'processing', 'completed', 'failed', 'skipped'] as const;
export const TERMINAL_JOB_STATUSES: readonly string[] = ['completed', 'completed_with_failures', 'cancelled', 'error'];

/** An answer in the appliance's error envelope ({error, error_info: {id, message}}), or a transport failure. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, opts: { body?: unknown; accept?: number[] } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: opts.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      cache: 'no-store',
    });
  } catch (err) {
    throw new ConsoleApiError(0, 'unreachable', `The appliance did not answer (${(err as Error).message}).`);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: a gateway page; reported below */
  }
  if (res.ok || opts.accept?.includes(res.status)) return json as T;
  const env = json as { error?: string; error_info?: { message?: string } } | null;
  throw new ConsoleApiError(res.status, env?.error ?? `http_${res.status}`, env?.error_info?.message ?? `HTTP ${res.status} from ${path}`);
}

const q = (params: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, String(v));
  const str = s.toString();
  return str ? `?${str}` : '';
};
const enc = encodeURIComponent;

export interface Throughput {
  minutes: { minute: string; pages_completed: number }[];
  pages_per_minute_avg: number;
}

export const api = {
  /** 200 ok or 503 degraded: both carry the body. */
  health: () => call<Health>('GET', '/health', { accept: [503] }),
  status: () => call<Status>('GET', '/pco/v1/status'),
  /** Pages completed per minute over the last `minutes`, kept by the appliance. */
  throughput: (minutes: number) => call<Throughput>('GET', `/pco/v1/throughput${q({ minutes: String(minutes) })}`),
  license: () => call<License>('GET', '/pco/v1/license'),
  usage: (from: string, to: string) => call<Usage>('GET', `/pco/v1/usage${q({ from, to })}`),
  usageExport: (from: string, to: string) => call<UsageExport>('GET', `/pco/v1/usage/export${q({ from, to })}`),
  jobs: (status?: string, limit = 50) => call<JobPage>('GET', `/pco/v1/jobs${q({ status, limit })}`),
  job: (id: string) => call<Job>('GET', `/pco/v1/jobs/${enc(id)}`),
  files: (id: string, status?: string, cursor?: string, limit = 100) => call<FilePage>('GET', `/pco/v1/jobs/${enc(id)}/files${q({ status, cursor, limit })}`),
  file: (id: string, doc: string) => call<FileDetail>('GET', `/pco/v1/jobs/${enc(id)}/files/${enc(doc)}`),
  retry: (id: string, errorIds: string[]) => call<Job & { requeued: number }>('POST', `/pco/v1/jobs/${enc(id)}/retry`, { body: { error_ids: errorIds } }),
  cancel: (id: string) => call<Job>('POST', `/pco/v1/jobs/${enc(id)}/cancel`),
  reportPath: (id: string) => `/pco/v1/jobs/${enc(id)}/report`,
  /** A recorded output of one file, streamed by the appliance (a Folio extension of /pco/v1). */
  outputPath: (id: string, doc: string, ext: string) => `/pco/v1/jobs/${enc(id)}/files/${enc(doc)}/outputs/${enc(ext)}`,
  /** The source document of one file. */
  sourcePath: (id: string, doc: string) => `/pco/v1/jobs/${enc(id)}/files/${enc(doc)}/source`,
  async metricsText(): Promise<string> {
    const res = await fetch('/metrics', { cache: 'no-store' });
    if (!res.ok) throw new ConsoleApiError(res.status, `http_${res.status}`, `HTTP ${res.status} from /metrics`);
    return res.text();
  },
};

/** Every failed file of a job, page by page (the file list pages by 100; failures are usually few). */
export async function allFailedFiles(jobId: string, max = 2_000): Promise<JobFile[]> {
  const out: JobFile[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.files(jobId, 'failed', cursor, 500);
    out.push(...page.files);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && out.length < max);
  return out;
}
