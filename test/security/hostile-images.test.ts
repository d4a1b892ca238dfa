import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { memoryMiB } from '../support/proc-memory.js';

/** A valid PNG whose header claims `width` × `height` pixels, with one row of data: tens of bytes. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const idat = deflateSync(Buffer.alloc(1 + width)); // one filtered row; the rest is missing
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// QUALITY.md 5 / issue 9: hostile images on the image endpoints of a real appliance. A small
// file claiming 30,000 × 30,000 pixels and an SVG whose entity and linked image point at a
// secret file on the appliance's disk are refused with image_decode_error, without the secret
// in the answer and without the appliance's memory growing; a plain image is read after them.
describe('hostile images on /v3/text', () => {
  let app: ApplianceProcess;
  let dir: string;
  const SECRET = 'folio-secret-do-not-leak-7f3a';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-hostile-img-'));
    await writeFile(join(dir, 'secret.txt'), SECRET);
    await sharp({ text: { text: SECRET, dpi: 200 } })
      .png()
      .toFile(join(dir, 'secret.png'));
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '0', FOLIO_DOCUMENT_WORKERS_EXPECTED: '0' });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a 30,000 × 30,000 header and an SVG with external references, and goes on serving', async () => {
    const key = await pcoClient(app.url).newKey();
    const text = async (png: Buffer, mime = 'image/png') => {
      const res = await fetch(`${app.url}/v3/text`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ src: `data:${mime};base64,${png.toString('base64')}` }),
      });
      return {
        status: res.status,
        raw: await res.clone().text(),
        body: (await res.json()) as { error?: string; error_info?: { message: string }; text?: string },
      };
    };
    const before = memoryMiB(app.proc.pid!);
    const huge = pngClaiming(30_000, 30_000);
    expect(huge.length).toBeLessThan(40_000);
    const big = await text(huge);
    expect([big.status, big.body.error]).toEqual([200, 'image_decode_error']);
    expect(big.body.error_info?.message).toContain('30000 × 30000');

    const svg = Buffer.from(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY leak SYSTEM "file://${dir}/secret.txt">]>` +
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="600" height="200">` +
        `<rect width="600" height="200" fill="white"/><text x="10" y="60" font-size="30">&leak;</text>` +
        `<image x="0" y="100" width="600" height="90" xlink:href="file://${dir}/secret.png"/></svg>`,
    );
    const drawn = await text(svg, 'image/svg+xml');
    expect([drawn.status, drawn.body.error]).toEqual([200, 'image_decode_error']);
    expect(drawn.raw).not.toContain(SECRET);

    const after = memoryMiB(app.proc.pid!);
    console.log(
      `[hostile-images] 30000x30000 header (${huge.length} bytes): ${big.body.error}; svg with external entity and image: ${drawn.body.error}; appliance RSS ${before.rss} → ${after.rss} MiB, peak ${after.peak} MiB`,
    );
    expect(after.rss - before.rss).toBeLessThan(150);

    const plain = await text(
      await sharp({ text: { text: 'Still reading images', dpi: 200 } })
        .flatten({ background: '#ffffff' })
        .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
        .png()
        .toBuffer(),
    );
    expect(plain.status).toBe(200);
    expect(plain.body.text).toContain('Still reading images');
  }, 120_000);
});
