#!/usr/bin/env node
// The `crm` command: a thin shim over the compiled CLI (npm ci builds it through `prepare`).
import('../dist/cli/main.js').then(
  async ({ main }) => {
    process.exitCode = await main(process.argv);
  },
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
      console.error('crm is not built yet: run `npm run build` (npm ci does it for you).');
      process.exitCode = 1;
      return;
    }
    throw error;
  },
);
