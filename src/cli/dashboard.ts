import { withClient, type GlobalOptions } from './api.js';
import { printJson } from './output.js';

/** `crm dashboard`: a fresh single-use sign-in link to the dashboard of a running sandbox (admin key). */
export async function dashboardCommand(options: GlobalOptions): Promise<void> {
  const login = await withClient(options, (client) => client.post<{ url: string; expires_at: string }>('/_sandbox/dashboard_logins'));
  if (options.json) printJson(login);
  else process.stdout.write(`${login.url}\n  Open it in a browser within 15 minutes; it works once. Signed in, the dashboard keeps you for 12 hours.\n`);
}
