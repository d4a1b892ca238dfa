/**
 * Memory per worker process with the model bundle loaded: one inference worker (text detection
 * and recognition sessions, the maths classifier) and one document worker (pdf.js, the layout
 * pipeline), read from /proc once the appliance is healthy (models loaded, nothing read yet) and
 * again after each has worked: 20 /v3/text requests with maths for the inference worker, a job
 * of 50 PDFs for the document worker. Reference in the same run: an idle Node process started
 * the same way (tsx and core/no-source-maps.ts), so the ratio is what Folio's own code and
 * models add to the runtime.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_IMPORTS } from '../core/runtime.js';
import { renderLatex } from '../test/integration/v3-math-support.js';
import { spawnAppliance } from '../test/support/appliance.js';
import { pcoClient } from '../test/support/pco-client.js';
import { headingAndParagraphsPdf } from '../test/support/pdf-fixtures.js';
import { memoryMiB } from '../test/support/proc-memory.js';

const TEXT_REQUESTS = 20;
const JOB_DOCUMENTS = 50;

export async function benchWorkerMemory(): Promise<Record<string, unknown>> {
  const bare = await idleNodeRss();
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-memory-'));
  const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1', FOLIO_DOCUMENT_WORKERS: '1', FOLIO_LOG_LEVEL: 'error' });
  try {
    const [inference] = app.childPids(/worker\/main\.ts inference/);
    const [document] = app.childPids(/worker\/main\.ts document/);
    await new Promise((r) => setTimeout(r, 2_000)); // models are loaded before the health check passes; let start-up garbage go
    const loaded = { inference: memoryMiB(inference!).rss, document: memoryMiB(document!).rss };

    const pco = pcoClient(app.url);
    const key = await pco.newKey();
    const src = `data:image/png;base64,${(await renderLatex(String.raw`\noindent Let $x^{2}+y^{2}=z^{2}$ hold.\\ \[ \int_0^1 f(x)\,dx = \frac{a}{b} \]`)).toString('base64')}`;
    for (let i = 0; i < TEXT_REQUESTS; i++) {
      await fetch(`${app.url}/v3/text`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ src }) }).then((r) =>
        r.arrayBuffer(),
      );
    }
    const pdf = await headingAndParagraphsPdf();
    for (let i = 0; i < JOB_DOCUMENTS; i++) await writeFile(join(dir, `doc-${i}.pdf`), pdf);
    const job = await pco.create({ input: { folder: `file://${dir}/` } });
    await pco.settled(job.body.job_id, 300_000);
    const worked = { inference: memoryMiB(inference!), document: memoryMiB(document!) };
    const ratio = (mb: number) => Math.round((mb / bare) * 10) / 10;
    return {
      idle_node_rss_mb: bare,
      inference_worker_rss_mb: {
        models_loaded: loaded.inference,
        after_text_requests: worked.inference.rss,
        peak: worked.inference.peak,
        ratio_to_idle_node: ratio(worked.inference.rss),
      },
      document_worker_rss_mb: {
        loaded: loaded.document,
        after_job: worked.document.rss,
        peak: worked.document.peak,
        ratio_to_idle_node: ratio(worked.document.rss),
      },
      text_requests: TEXT_REQUESTS,
      job_documents: JOB_DOCUMENTS,
    };
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** RSS of a Node process started like Folio's, doing nothing. */
async function idleNodeRss(): Promise<number> {
  const proc = spawn(process.execPath, [...RUNTIME_IMPORTS, '-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 2_000));
    return memoryMiB(proc.pid!).rss;
  } finally {
    proc.kill();
  }
}
