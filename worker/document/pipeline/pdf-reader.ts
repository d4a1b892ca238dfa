import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError, type ErrorId } from '../../../core/errors.js';
import { NO_SOURCE_MAPS } from '../../../core/runtime.js';
import type { PageContent } from './pdf.js';
import type { ThreadReply, ThreadRequest } from './pdf-thread.js';

const THREAD = new URL('./pdf-thread.ts', import.meta.url);
const TSX_API = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'));
const [PDFJS_WORKER, PDFJS] = ['pdfjs-dist/legacy/build/pdf.worker.mjs', 'pdfjs-dist/legacy/build/pdf.mjs'].map(
  (m) => pathToFileURL(createRequire(import.meta.url).resolve(m)).href,
);
/**
 * A worker thread does not inherit the process's TypeScript loader (Node 20). The thread's first
 * module loads pdf.js (plain JavaScript) before it registers tsx's loader, so tsx never transforms
 * pdf.js's 3.4 MB of modules: that cost about 240 MiB of resident memory for the worker's life and 2–3 s
 * at the thread's first document (measured: thread start and first document 292–320 MiB before,
 * 60–63 MiB after). pdf.js's in-thread "worker" takes its handler from `globalThis.pdfjsWorker`
 * instead of importing it. Then it turns source maps off as every Folio process does (tsx turns
 * them on in the thread too, and Node would keep the maps of what it loads), and loads the
 * thread's TypeScript entry, whose pdf.js imports resolve to the modules already loaded.
 */
const BOOT = new URL(
  `data:text/javascript,${encodeURIComponent(
    [
      `globalThis.pdfjsWorker = await import(${JSON.stringify(PDFJS_WORKER)});`,
      `await import(${JSON.stringify(PDFJS)});`,
      `const { register } = await import(${JSON.stringify(TSX_API.href)});`,
      'register();',
      `await import(${JSON.stringify(NO_SOURCE_MAPS)});`,
      `await import(${JSON.stringify(THREAD.href)});`,
    ].join(' '),
  )}`,
);
/** A hostile page cannot take the worker's memory: its thread dies (the page fails) past this heap. */
const THREAD_HEAP_MB = 1024;
/** Warm threads kept between documents (starting one loads pdf.js: about a second). */
const MAX_IDLE_THREADS = 2;

/** Thrown to a page being read when its reader is stopped (its clock ran out, or the document closed). */
export class ReadStopped extends Error {}

/** One pdf.js thread: one request at a time. */
class PageThread {
  private readonly worker = new Worker(BOOT, { execArgv: [], stdout: false, stderr: false, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  private pending?: { resolve: (r: ThreadReply) => void; reject: (e: Error) => void };
  dead = false;

  constructor() {
    this.worker.on('message', (r: ThreadReply) => (r.type === 'error' ? this.settle(threadError(r.error)) : this.settle(undefined, r)));
    this.worker.on('error', (err) => this.settle(err));
    this.worker.on('exit', () => {
      this.dead = true;
      this.settle(new ReadStopped('page reader exited'));
    });
  }

  ask(request: ThreadRequest): Promise<ThreadReply> {
    if (this.dead) return Promise.reject(new ReadStopped('page reader exited'));
    if (this.pending) return Promise.reject(new Error('a page thread reads one page at a time'));
    const answer = new Promise<ThreadReply>((resolve, reject) => (this.pending = { resolve, reject }));
    this.worker.postMessage(request);
    return answer;
  }

  /** Idle threads do not keep the process alive. */
  hold(held: boolean): void {
    if (held) this.worker.ref();
    else this.worker.unref();
  }

  terminate(): void {
    this.dead = true;
    this.settle(new ReadStopped('page reading stopped'));
    void this.worker.terminate();
  }

  private settle(err?: Error, reply?: ThreadReply): void {
    const pending = this.pending;
    this.pending = undefined;
    if (err) pending?.reject(err);
    else if (reply) pending?.resolve(reply);
  }
}

const idle: PageThread[] = [];

function takeThread(): PageThread {
  let thread = idle.pop();
  while (thread?.dead) thread = idle.pop();
  thread ??= new PageThread();
  thread.hold(true);
  return thread;
}

function giveBack(thread: PageThread): void {
  if (thread.dead) return;
  if (idle.length >= MAX_IDLE_THREADS) return thread.terminate();
  thread.hold(false);
  idle.push(thread);
}

/** Starts a page thread ahead of the first document (loading pdf.js in it takes a while). */
export function prewarmPdfReader(): void {
  giveBack(takeThread());
}

/**
 * Reads a PDF's pages with pdf.js in a worker thread. stop() ends the page being read at once,
 * CPU and memory included (the thread is terminated); the next page opens the file again in
 * another thread.
 */
export class PdfReader {
  private thread?: PageThread;
  private opened?: Promise<number>;
  private closed = false;
  numPages = 0;

  private constructor(private readonly path: string) {}

  /** @throws ApiError pdf_content_type or pdf_encrypted, as openPdfFile */
  static async open(path: string): Promise<PdfReader> {
    const reader = new PdfReader(path);
    try {
      reader.numPages = await reader.ready();
    } catch (err) {
      await reader.close();
      throw err;
    }
    return reader;
  }

  /** Resolves once a thread has the file open (a page's clock is paused meanwhile). */
  ready(): Promise<number> {
    if (this.closed) return Promise.reject(new ReadStopped('the document is closed'));
    if (!this.opened) {
      const thread = (this.thread = takeThread());
      this.opened = thread
        .ask({ type: 'open', path: this.path })
        .then((r) => (r.type === 'opened' ? r.numPages : Promise.reject(new Error(`unexpected reply ${r.type}`))));
    }
    return this.opened;
  }

  async readPage(n: number, wantLinks: boolean): Promise<PageContent> {
    await this.ready();
    const reply = await this.thread!.ask({ type: 'page', n, wantLinks });
    if (reply.type !== 'page') throw new Error(`unexpected reply ${reply.type}`);
    return reply.content;
  }

  /** Ends the page being read (it rejects with ReadStopped) and frees the thread's CPU and memory. */
  stop(): void {
    this.thread?.terminate();
    this.thread = undefined;
    this.opened = undefined;
    // The next page's thread starts now, while the caller records this page.
    if (!this.closed) void this.ready().catch(() => undefined);
  }

  /** Closes the document; its thread waits, warm, for the next one. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    const closed = await thread.ask({ type: 'close' }).then(
      () => true,
      () => false,
    );
    if (closed) giveBack(thread);
    else thread.terminate();
  }
}

function threadError(e: { id?: string; message: string }): Error {
  return e.id ? new ApiError(e.id as ErrorId, e.message, {}, false) : new Error(e.message);
}
