// The layers of src/ and who may import whom: docs/architecture.md ("Layers") says why.
// `npm run lint` checks them (CI runs it after the type check); a rule broken is an error.
//
// From the bottom: src/*.ts (shared helpers: errors, memo, private files) → domain → schemas →
// store → services → webhooks, seed → accounts → http → sandbox (the start-up) → cli, index.ts.
// client, mcp, sync and sdkgen work over HTTP against any server speaking the API: of the server's
// side they use domain/ and schemas/ only.

/** A folder of src/, as a path pattern. */
const folder = (...names) => `^src/(${names.join('|')})/`;
/** The files directly in src/ that any layer may use (index.ts, the package's API, is the top instead). */
const SHARED = '^src/(errors|memo|private-files|json-tree|sea|version|worker-script|heap-limits)[.]ts$';

/** Layers a folder must not import: everything above it. */
const below = (name, from, upper, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: folder(from) },
  to: { path: folder(...upper) },
});

module.exports = {
  forbidden: [
    {
      name: 'domain-is-a-leaf',
      comment: 'domain/ is rules without I/O: it imports nothing of ours but the shared helpers (errors, memo).',
      severity: 'error',
      from: { path: folder('domain') },
      to: { path: '^src/', pathNot: [folder('domain'), '^src/(errors|memo)[.]ts$'] },
    },
    {
      name: 'schemas-are-a-leaf',
      comment: 'schemas/ describe the API: they import other schemas, domain/ and the shared helpers, nothing that runs.',
      severity: 'error',
      from: { path: folder('schemas') },
      to: { path: '^src/', pathNot: [folder('schemas', 'domain'), '^src/(errors|memo)[.]ts$'] },
    },
    below('store-below-services', 'store', ['services', 'webhooks', 'seed', 'accounts', 'http', 'sandbox', 'cli', 'mcp', 'sync', 'client', 'sdkgen'],
      'store/ is SQLite: it imports domain/, schemas/ (types) and the shared helpers, never the code that uses it.'),
    below('services-below-http', 'services', ['webhooks', 'seed', 'accounts', 'http', 'sandbox', 'cli', 'mcp', 'sync', 'client', 'sdkgen'],
      'services/ are the use cases: they import store/, domain/ and schemas/, never the HTTP layer, the CLI or the layers built on them.'),
    below('webhooks-below-accounts', 'webhooks', ['seed', 'accounts', 'http', 'sandbox', 'cli', 'mcp', 'sync', 'client', 'sdkgen'],
      'webhooks/ (delivery) is built on services/; the accounts start its worker, not the other way round.'),
    below('seed-below-accounts', 'seed', ['webhooks', 'accounts', 'http', 'sandbox', 'cli', 'mcp', 'sync', 'client', 'sdkgen'],
      'seed/ fills one database through the services; accounts and the start-up call it.'),
    below('accounts-below-http', 'accounts', ['http', 'sandbox', 'cli', 'mcp', 'sync', 'client', 'sdkgen'],
      'accounts/ is what a request runs in; http/ finds the account, accounts never see a request.'),
    below('assistant-below-http', 'assistant', ['http', 'sandbox', 'cli', 'sync', 'sdkgen'],
      'assistant/ (the built-in assistant) runs the MCP tools for http/ through services/; the routes call it, never the reverse.'),
    below('http-below-sandbox', 'http', ['sandbox', 'cli', 'sync', 'client', 'sdkgen'],
      'http/ builds the app; the start-up (sandbox/) and the CLI run it.'),
    {
      name: 'cli-side-off-the-server',
      comment: 'client/, mcp/, sync/ and sdkgen/ speak HTTP to any server with the API: none of the sandbox server\'s code but domain/ and schemas/.',
      severity: 'error',
      from: { path: folder('client', 'mcp', 'sync', 'sdkgen') },
      to: { path: folder('store', 'services', 'webhooks', 'seed', 'accounts', 'http', 'sandbox') },
    },
    {
      name: 'only-cli-imports-cli',
      comment: 'cli/ is the top: bin/crm.js (outside src/) and cli/ itself load it, nothing else.',
      severity: 'error',
      from: { path: '^src/', pathNot: folder('cli') },
      to: { path: folder('cli') },
    },
    {
      name: 'shared-helpers-are-leaves',
      comment: 'The files directly in src/ (errors, memo, private files, …) are used by every layer, so they import none.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/', pathNot: [SHARED, folder('domain')] },
    },
    {
      // A cycle of imports that run: one of the modules is in the wrong place. A cycle only through
      // `import type` runs nothing (a type named where it is made, used by its maker's helper) and
      // does not count. A cycle across folders is an error whatever it carries: no-folder-cycle.
      name: 'no-circular',
      comment: 'A module cycle: one of the two is in the wrong place, or a part of it belongs in a third module.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-folder-cycle',
      comment: 'Two folders that import each other are one layer or a wrong layering: docs/architecture.md.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs'] },
  },
};
