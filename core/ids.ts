import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Stable JSON: object keys sorted at every depth, so equal bodies hash equally. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Deterministic id: a prefix plus the first `len` hex digits of sha256 over the canonical parts. */
export function hashId(prefix: string, parts: unknown, len = 24): string {
  return prefix + createHash('sha256').update(canonicalJson(parts)).digest('hex').slice(0, len);
}

export function randomId(prefix = '', bytes = 12): string {
  return prefix + randomBytes(bytes).toString('hex');
}

/** Constant-time string comparison (signatures, keys). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
