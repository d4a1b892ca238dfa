import { describe, expect, it } from 'vitest';
import { openLocation, STORAGE_CLIENTS_CACHED, storageClientsCached } from './index.js';

describe('storageFor', () => {
  it('reuses one client per bucket root and keeps a bounded number, the recently used ones', () => {
    const settings = { azureEmulator: false };
    const first = openLocation('s3://bucket-0/a/b.pdf', settings).storage;
    expect(openLocation('s3://bucket-0/other.pdf', settings).storage).toBe(first);
    const early = openLocation('s3://bucket-early/x.pdf', settings).storage;
    for (let i = 1; i <= STORAGE_CLIENTS_CACHED + 50; i++) {
      openLocation(`s3://bucket-${i}/x.pdf`, settings);
      openLocation('s3://bucket-0/again.pdf', settings); // bucket-0 stays recent
    }
    expect(storageClientsCached()).toBe(STORAGE_CLIENTS_CACHED);
    expect(openLocation('s3://bucket-0/last.pdf', settings).storage).toBe(first);
    // A root not used since is dropped: the next use opens a new client.
    expect(openLocation('s3://bucket-early/x.pdf', settings).storage).not.toBe(early);
  });
});
