import { waitFor } from './ports.js';

/** A tiny client for /pco/v1 in tests. */
export function pcoClient(base: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, text, headers: res.headers };
  };
  return {
    call,
    /** A new application and one key of it, as the operator makes them: the headers to send it with. */
    async newKey(name = `app-${Date.now()}-${Math.random()}`): Promise<{ app_id: string; app_key: string }> {
      const app = await call('POST', '/pco/v1/apps', { name });
      const key = await call('POST', `/pco/v1/apps/${app.body.app_id}/keys`);
      return { app_id: app.body.app_id as string, app_key: key.body.app_key as string };
    },
    create: (body: unknown, query = '') => call('POST', `/pco/v1/jobs${query}`, body),
    job: (id: string) => call('GET', `/pco/v1/jobs/${id}`),
    /** Waits until the job reaches a terminal status and returns it. */
    async settled(id: string, timeoutMs = 60_000) {
      return waitFor(
        async () => {
          const r = await call('GET', `/pco/v1/jobs/${id}`);
          // A cancelled job reads cancelled at once; it has settled when its in-flight files have (finished_at).
          const settled = r.body?.status !== 'cancelled' || r.body.finished_at !== null;
          return ['completed', 'completed_with_failures', 'cancelled', 'error'].includes(r.body?.status) && settled && r.body;
        },
        timeoutMs,
        200,
      );
    },
  };
}

export const sumOfFive = (f: Record<string, number>) => f.queued! + f.processing! + f.completed! + f.failed! + f.skipped!;
