import { createHmac } from 'node:crypto';
import { safeEqual } from '../../core/ids.js';

/** The header every notification carries (spec 6.2). */
export const SIGNATURE_HEADER = 'Service-Signature';
/** Receivers reject timestamps further than this from their clock (spec 6.2, item 3). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, t: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/**
 * The Service-Signature value for `body` sent at unix second `t`: `t=<t>,v1=<hex>` with one v1 per
 * secret (two during a rotation grace period), each HMAC-SHA256 over `<t>.<body>`.
 */
export function sign(secrets: string[], body: string | Uint8Array, t: number): string {
  if (!secrets.length) throw new Error('no signing secret');
  if (!Number.isSafeInteger(t) || t < 0) throw new Error(`bad signature timestamp ${t}`);
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmacHex(s, t, body)}`)].join(',');
}

/**
 * Checks a Service-Signature header as a receiver would: any v1 value matching any of `secrets`
 * (constant-time), with `t` within `toleranceSec` of `nowMs` (milliseconds, like Date.now()).
 */
export function verify(
  header: string | null | undefined,
  body: string | Uint8Array,
  secrets: string[],
  nowMs: number,
  toleranceSec = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let t: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return false;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
    // other schemes (v0, future versions) are ignored, as receivers are told to
  }
  if (t === undefined || !candidates.length) return false;
  if (Math.abs(nowMs / 1000 - t) > toleranceSec) return false;
  let ok = false;
  for (const secret of secrets) {
    const expected = hmacHex(secret, t, body);
    // no early exit: the time taken does not say which candidate matched
    for (const c of candidates) ok = safeEqual(expected, c) || ok;
  }
  return ok;
}
