import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own sandbox processes; forks keep the native SQLite addon per process.
    pool: 'forks',
    // Two files at a time even on 2 cores (vitest's default there is 1): most of a file's time is
    // spent waiting on its sandbox processes, a browser or a clock (the soak's 60 s, a 15 s heartbeat),
    // so one file at a time left a core idle for most of the run: 482 s → 268 s on 2 cores.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
