import { defineConfig } from 'vitest/config';

// The TypeScript SDK's own test run (`npm run test:sdk:ts`), against live sandboxes its setup starts.
export default defineConfig({
  test: { root: import.meta.dirname, include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
});
