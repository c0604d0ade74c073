import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files in parallel, but not so many that PGlite instances crowd memory.
    maxWorkers: 2,
  },
});
