/** `crm openapi`: builds the app on a throwaway database and prints its OpenAPI document. */
export async function openapiCommand(options: { baseUrl: string }): Promise<void> {
  const [{ openDb }, { createContext }, { buildApp, openApiDocument }] = await Promise.all([
    import('../store/db.js'),
    import('../services/context.js'),
    import('../http/app.js'),
  ]);
  const db = openDb(':memory:');
  const ctx = createContext(db, () => options.baseUrl);
  const app = await buildApp({ ctx, control: { reset: () => ({ seeded: false }) }, logLevel: 'silent' });
  process.stdout.write(`${JSON.stringify(openApiDocument(app, ctx), null, 2)}\n`);
  await app.close();
  db.close();
}
