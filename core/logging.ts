import pino, { type Logger } from 'pino';

/** Header and body fields that carry credentials; pino replaces them with [redacted]. */
export const REDACT_PATHS = [
  'app_key',
  'app_token',
  'secret',
  'signing_secret',
  'authorization',
  '*.app_key',
  '*.app_token',
  '*.secret',
  '*.signing_secret',
  '*.authorization',
  '*.password',
  'headers.app_key',
  'headers.app_token',
  'headers.authorization',
  'headers.cookie',
  'req.headers.app_key',
  'req.headers.app_token',
  'req.headers.authorization',
  'strokes_session_id',
  'headers.strokes_session_id',
  'req.headers.strokes_session_id',
];

export function createLogger(opts: { level?: string; name: string; destination?: pino.DestinationStream }): Logger {
  return pino({ name: opts.name, level: opts.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, opts.destination);
}

export type { Logger };
