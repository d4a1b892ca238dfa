import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logging.js';

describe('logger', () => {
  it('redacts keys, tokens and secrets wherever they sit', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _e, cb) {
        out += chunk;
        cb();
      },
    });
    const log = createLogger({ name: 't', destination: sink });
    log.info({ headers: { app_key: 'KEY-123', app_token: 'TOK-456' }, body: { secret: 'whsec_abc' }, app_key: 'KEY-789', route: '/v3/text' }, 'request');
    expect(out).not.toMatch(/KEY-123|TOK-456|whsec_abc|KEY-789/);
    expect(out).toContain('[redacted]');
    expect(out).toContain('/v3/text');
  });
});
