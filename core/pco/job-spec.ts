import { z } from 'zod';

export const FILE_STATUSES = ['queued', 'processing', 'completed', 'failed', 'skipped'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];
export const TERMINAL_FILE_STATUSES: FileStatus[] = ['completed', 'failed', 'skipped'];

export const JOB_STATUSES = ['enumerating', 'processing', 'completed', 'completed_with_failures', 'cancelled', 'error'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: JobStatus[] = ['completed', 'completed_with_failures', 'cancelled', 'error'];

export const LAYOUTS = ['alongside', 'mirror', 'flat'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** The stored, normalised form of a POST /pco/v1/jobs body (defaults applied). */
export interface JobSpec {
  name: string | null;
  input: { folder: string | null; files: string[] | null; recursive: boolean; include: string[]; exclude: string[] };
  output: { folder: string; layout: Layout; on_existing: 'skip' | 'replace' };
  options: {
    conversion_formats: Record<string, boolean>;
    extra_outputs: string[];
    ocr: Record<string, unknown>;
  };
  policy: { max_pages_per_document: number; per_page_timeout_seconds: number; max_retries: number; priority: 'low' | 'normal' | 'high' };
  callback: { url: string; headers: Record<string, string>; events: string[] } | null;
  client_reference: string | null;
}

/** The part of a spec that identifies a job: the same parts give the same job_id. */
export function identityOf(spec: JobSpec): unknown {
  return { input: spec.input, output_folder: spec.output.folder, layout: spec.output.layout, options: spec.options, client_reference: spec.client_reference };
}

export const policySchema = z
  .object({
    max_pages_per_document: z.number().int().min(1).max(100_000).default(5000),
    per_page_timeout_seconds: z.number().min(1).max(3600).default(15),
    max_retries: z.number().int().min(0).max(20).default(3),
    priority: z.enum(['low', 'normal', 'high']).default('normal'),
  })
  .strict();
