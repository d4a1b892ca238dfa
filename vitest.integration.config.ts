import { defineConfig } from 'vitest/config';

// Integration tests start real servers (redis-server, s3rver, Azurite, the appliance and its
// workers as child processes). Two cores: run files two at a time.
export default defineConfig({
  test: {
    include: ['test/integration/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    teardownTimeout: 20_000,
  },
});
