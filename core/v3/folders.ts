import type { Storage } from '../storage/index.js';

/** Deletes every object under `prefix` in Folio's own store; returns how many there were. */
export async function deleteFolder(storage: Storage, prefix: string): Promise<number> {
  const keys: string[] = [];
  for await (const o of storage.list({ prefix })) keys.push(o.key);
  await Promise.all(keys.map((k) => storage.delete(k)));
  return keys.length;
}
