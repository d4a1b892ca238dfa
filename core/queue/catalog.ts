import { z } from 'zod';
import { strokeSchema } from '../v3/strokes.js';

/** Priorities of policy.priority as BullMQ priorities (lower runs first). */
export const PRIORITY = { high: 1, normal: 5, low: 10 } as const;
export type PriorityName = keyof typeof PRIORITY;

/**
 * Options of a 'page' task. Without `math` the worker reads printed text only (documents).
 * - math 'auto' (/v3/text): every line is read as text or as maths, whichever its evidence favours;
 * - math 'formula' (/v3/latex, batch): the whole image, turned upright, is one formula;
 * - nBest: how many distinct candidate formulas to list (formula mode; /v3/latex n_best).
 * - smiles, inchi: look for chemical structure diagrams and read them as SMILES, with InChI (/v3/text include_smiles, include_inchi).
 * - assemble (/v3/text, batch text): answer the page assembled (page/assemble.ts: reading order,
 *   headings, paragraphs, lists, code, tables), after the request's alphabets_allowed and
 *   fullwidth_punctuation are applied to the text read, and without page furniture when
 *   include_page_info asks for none.
 * - calibrate (default true): judge each formula read by the formula-confidence model, which reads
 *   it a second time at twice the size (worker/inference/formula-confidence.ts). Documents send
 *   false: no confidence_rate_threshold applies to their pages, so the second read would be spent
 *   for nothing; their lines report the per-symbol rate.
 * Unknown keys pass, so an older worker keeps reading tasks a newer appliance queues.
 */
export const pageOptionsSchema = z
  .object({
    math: z.enum(['auto', 'formula']).optional(),
    nBest: z.number().int().min(1).max(10).optional(),
    smiles: z.boolean().optional(),
    inchi: z.boolean().optional(),
    calibrate: z.boolean().optional(),
    assemble: z
      .object({
        alphabetsAllowed: z.record(z.boolean()).optional(),
        fullwidthPunctuation: z.boolean().nullable().optional(),
        dropPageInfo: z.boolean().optional(),
      })
      .optional(),
  })
  .passthrough();
export type PageOptions = z.infer<typeof pageOptionsSchema>;

/**
 * Every queue Folio uses: its task payload schema, attempts and backoff. Producers go through
 * `enqueue`, consumers through `defineWorker`, and both validate against these schemas.
 */
export const TASKS = {
  /** Enumerate a private-cloud job's input and queue its documents. */
  'pco-enumerate': {
    queue: 'jobs',
    payload: z.object({ jobId: z.string() }),
    attempts: 5,
    backoffMs: 2000,
    timeoutMs: 0,
  },
  /** Process one document of a private-cloud job. */
  'pco-document': {
    queue: 'documents',
    payload: z.object({ jobId: z.string(), documentId: z.string(), sourceUri: z.string(), generation: z.number().int().min(0) }),
    attempts: 4,
    backoffMs: 1000,
    timeoutMs: 0,
  },
  /** Recognise one page image on an inference worker. */
  page: {
    queue: 'pages',
    payload: z.object({ imageKey: z.string(), page: z.number().int().min(1), options: pageOptionsSchema.default({}) }),
    attempts: 2,
    backoffMs: 500,
    timeoutMs: 15_000,
  },
  /**
   * Read one /v3/strokes request's pen strokes on an inference worker. Its own queue (defineWorker
   * fails other task names on a queue); the HTTP request waits for the answer, so no retry.
   */
  strokes: {
    queue: 'strokes',
    payload: z.object({ strokes: z.array(strokeSchema).min(1) }),
    attempts: 1,
    backoffMs: 500,
    timeoutMs: 15_000,
  },
  /**
   * Count the pages of a few sample documents for a private-cloud dry run (LibreOffice and pdf.js
   * run on a document worker, never in the appliance). The answer lists one count per URI, null
   * where a document could not be read; the request waits for it, so no retry.
   */
  'count-pages': {
    queue: 'page-counts',
    payload: z.object({ sourceUris: z.array(z.string()).min(1).max(100) }),
    attempts: 1,
    backoffMs: 500,
    timeoutMs: 0,
  },
  /** Deliver one signed webhook notification. */
  webhook: {
    queue: 'webhooks',
    payload: z.object({ deliveryId: z.string() }),
    attempts: 8,
    backoffMs: 15_000,
    timeoutMs: 10_000,
  },
  /**
   * Process one /v3/pdf document. Its own queue: defineWorker fails any task of another name on
   * its queue, so sharing 'documents' with pco-document would fail one or the other.
   */
  'v3-pdf': {
    queue: 'v3-documents',
    payload: z.object({ pdfId: z.string() }),
    attempts: 3,
    backoffMs: 1000,
    timeoutMs: 0,
  },
  /** Make the formats of one POST /v3/converter request. */
  'v3-convert': {
    queue: 'v3-conversions',
    payload: z.object({ conversionId: z.string() }),
    attempts: 2,
    backoffMs: 1000,
    timeoutMs: 0,
  },
} as const;

export type TaskName = keyof typeof TASKS;
export type Payload<T extends TaskName> = z.infer<(typeof TASKS)[T]['payload']>;
export const QUEUE_NAMES = [...new Set(Object.values(TASKS).map((t) => t.queue))];
