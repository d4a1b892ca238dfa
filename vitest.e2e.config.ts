import { defineConfig } from 'vitest/config';

// End-to-end tests drive the operator console in headless Chromium against a real appliance
// (its private Redis and worker processes). One file at a time: each starts its own appliance and browser.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/support/build-console.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    teardownTimeout: 20_000,
  },
});
