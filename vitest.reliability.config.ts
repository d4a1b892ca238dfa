import { defineConfig } from 'vitest/config';

// Fault injection (test/reliability) and hostile input (test/security) against real processes:
// redis-server, s3rver, the appliance and its worker children. Two cores: two files at a time.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts', 'test/security/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 90_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    teardownTimeout: 30_000,
  },
});
