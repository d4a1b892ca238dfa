import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{core,page,appliance,worker,license,console,models}/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
