import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{core,appliance,worker,license,console,models}/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
