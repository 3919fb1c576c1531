/** The OpenAPI document, built from an app on a throwaway database (no server needed). */
export async function openApiDocumentOffline(baseUrl = 'http://127.0.0.1:4010'): Promise<Record<string, unknown>> {
  const [{ openDb }, { createContext }, { buildApp, openApiDocument }] = await Promise.all([
    import('../store/db.js'),
    import('../services/context.js'),
    import('../http/app.js'),
  ]);
  const db = openDb(':memory:');
  const ctx = createContext(db, () => baseUrl);
  const app = await buildApp({ ctx, control: { reset: () => ({ seeded: false }) }, logLevel: 'silent' });
  try {
    return openApiDocument(app, ctx);
  } finally {
    await app.close();
    db.close();
  }
}

/** `crm openapi`: prints the OpenAPI document. */
export async function openapiCommand(options: { baseUrl: string }): Promise<void> {
  process.stdout.write(`${JSON.stringify(await openApiDocumentOffline(options.baseUrl), null, 2)}\n`);
}
