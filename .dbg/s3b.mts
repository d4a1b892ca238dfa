import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { S3Storage } from '../core/storage/s3.js';
const S3rver = createRequire(import.meta.url)('s3rver');
const dir = mkdtempSync('/tmp/s3rv-');
const srv = new S3rver({ address: '127.0.0.1', port: 45999, directory: dir, silent: true, configureBuckets: [{ name: 'bkt' }] });
srv.on('error', (e: any) => console.log('KOA ERROR', e.code, e.message, e.stack?.split('\n').slice(0, 6).join('\n')));
await srv.run();
const s = new S3Storage({ bucket: 'bkt', endpoint: 'http://127.0.0.1:45999', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', maxAttempts: 1 });
const keys = Array.from({ length: 1200 }, (_, i) => `many/${String(i).padStart(5, '0')}.txt`);
let next = 0;
await Promise.all(Array.from({ length: 32 }, async () => { while (next < keys.length) await s.write(keys[next++], 'x'); }));
let n = 0; try { for await (const o of s.list({ prefix: 'many/', pageSize: 1000 })) n++; } catch (e) { console.log('list failed', (e as any).message); }
console.log('listed', n);
await srv.close();
