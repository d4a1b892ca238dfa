import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{core,page,appliance,worker,license,console}/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
