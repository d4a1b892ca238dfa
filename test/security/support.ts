import { ERROR_IDS } from '../../core/errors.js';

export interface Answer {
  status: number;
  text: string;
  body: any;
}

/** One request to a spawned appliance; `body` is sent as it is (a string) with a JSON content type. */
export async function send(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json };
}

/**
 * The spec's error envelope (7.1): {error, error_info: {id, message}} with id = error, an id of
 * core/errors.ts; undefined when it is one, else a description of what is wrong.
 */
export function envelopeProblem(a: Answer): string | undefined {
  const b = a.body;
  if (!b || typeof b !== 'object') return `not JSON: ${a.text.slice(0, 200)}`;
  if (!ERROR_IDS.includes(b.error)) return `error id ${JSON.stringify(b.error)} not in ERROR_IDS`;
  if (!b.error_info || b.error_info.id !== b.error || typeof b.error_info.message !== 'string') return `bad error_info ${JSON.stringify(b.error_info)}`;
  return undefined;
}

/** An answer is acceptable when it is below 500 and, unless a 2xx without `error`, a spec envelope. */
export function answerProblem(a: Answer): string | undefined {
  if (a.status >= 500) return `HTTP ${a.status}: ${a.text.slice(0, 300)}`;
  if (a.status < 300 && !(a.body && typeof a.body === 'object' && 'error' in a.body)) return undefined;
  return envelopeProblem(a);
}
