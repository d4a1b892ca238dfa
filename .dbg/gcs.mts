import { GcsStorage } from '../core/storage/gcs.js';
import { freePort } from '../test/support/ports.js';
const dead = new GcsStorage({ bucket: 'b', endpoint: `http://127.0.0.1:${await freePort()}`, maxAttempts: Number(process.env.MA ?? 4) });
for (const [n, f] of [['ping', () => dead.ping()], ['head', () => dead.head('x')], ['readBuffer', () => dead.readBuffer('x')], ['read', () => dead.read('x')]] as const) {
  const t = Date.now();
  try { await f(); console.log(n, 'resolved'); } catch (e) { console.log(n, (e as any).kind, (e as any).code, (e as any).message?.slice(0, 150), Date.now() - t, 'ms'); }
}
