import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{core,appliance,worker,license,console}/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
