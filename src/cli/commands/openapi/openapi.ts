/** The OpenAPI document, built from an app on a throwaway database (no server needed). */
export async function openApiDocumentOffline(baseUrl = 'http://127.0.0.1:4010'): Promise<Record<string, unknown>> {
  const [{ openDb }, { AccountRegistry }, { buildApp, openApiDocument }] = await Promise.all([
    import('../../../store/db.js'),
    import('../../../accounts/registry.js'),
    import('../../../http/app.js'),
  ]);
  const db = openDb(':memory:');
  const accounts = new AccountRegistry({ db, dbPath: ':memory:', start: { rateLimit: '0', quota: '0' }, baseUrl: () => baseUrl });
  const app = await buildApp({ accounts, control: { reset: () => ({ seeded: false }) }, logLevel: 'silent' });
  try {
    return openApiDocument(app, accounts.default.ctx);
  } finally {
    await app.close();
    db.close();
  }
}

/** `crm openapi`: prints the OpenAPI document. */
export async function openapiCommand(options: { baseUrl: string }): Promise<void> {
  process.stdout.write(`${JSON.stringify(await openApiDocumentOffline(options.baseUrl), null, 2)}\n`);
}
