import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files in parallel, but not so many that PGlite instances crowd memory.
    maxWorkers: 2,
    // The embedded PGlite on the test's own thread: through the worker thread (what npm start
    // uses) the PGlite suites cost ~25% more CPU. WDAPI_EMBEDDED_THREAD=worker runs them through it.
    env: { WDAPI_EMBEDDED_THREAD: process.env.WDAPI_EMBEDDED_THREAD ?? 'in-process' },
  },
});
