// The Overview's SDK example, as a pure function so the SDK install test runs exactly this text
// (test/e2e/sdk-install.test.ts): the TypeScript SDK's package, as an ES module that `node deals.mjs` runs as pasted.
export function sdkSnippet(baseUrl: string): string {
  return [
    '// npm install @crm-sandbox/sdk',
    "import { Crm } from '@crm-sandbox/sdk';",
    `const crm = new Crm({ baseUrl: '${baseUrl}', apiKey: process.env.CRM_API_KEY });`,
    'const deals = await crm.deals.list({ limit: 5 });',
    'for (const deal of deals.data) console.log(deal.id, deal.title);',
  ].join('\n');
}
