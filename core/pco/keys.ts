/** Redis keys of private-cloud job records (one deployment prefix; not cluster-sharded). */
export const pcoKeys = (prefix: string) => ({
  jobs: `${prefix}:pco:jobs`,
  job: (jobId: string) => `${prefix}:pco:job:${jobId}`,
  file: (jobId: string, documentId: string) => `${prefix}:pco:file:${jobId}:${documentId}`,
  /** Prefix of the per-status sorted sets of a job's files; append the status. */
  statusSetPrefix: (jobId: string) => `${prefix}:pco:fs:${jobId}:`,
  statusSet: (jobId: string, status: string) => `${prefix}:pco:fs:${jobId}:${status}`,
  /** Measured deployment page rate (pages per minute), for dry-run estimates. */
  rate: `${prefix}:pco:rate`,
});

/** Job records and their files live 30 days after the last change. */
export const JOB_TTL_SECONDS = 30 * 86_400;
