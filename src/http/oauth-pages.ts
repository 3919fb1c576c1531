/** The authorization endpoint's pages: consent (Approve/Deny) and errors that must not redirect. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2rem}button{font-size:1.05rem;padding:.5rem 1.3rem;margin-right:.6rem}</style>
</head><body>
<p>crm sandbox: no real account is involved.</p>
${body}
</body></html>`;

/**
 * A self-registered app chose its own name, so the page must not let it pass for one the team
 * made: it says so before anything else, names where the code goes, and says who may approve.
 */
const selfRegisteredNotice = (redirectUri: string) => `<div role="alert" style="border:2px solid #b45309;background:#fffbeb;padding:.6rem .9rem;margin:1rem 0">
<p><strong>This app registered itself.</strong> Nobody on your team created it: an MCP client (or anything that reached this sandbox)
registered it a moment ago and chose the name above. Approve only if you just started signing in from that client.
Its code goes to <code>${escapeHtml(new URL(redirectUri).host)}</code>.</p>
<p>Approving needs you signed in to this sandbox's dashboard in this browser, with a key that holds the scopes below.</p>
</div>`;

export function consentPage(p: { appName: string; selfRegistered: boolean; redirectUri: string; scopes: string[]; sealed: string }): string {
  const scopes = p.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return page(
    `Authorize ${p.appName}`,
    `<h1>Authorize <em>${escapeHtml(p.appName)}</em>${p.selfRegistered ? ' (self-registered)' : ''}?</h1>
${p.selfRegistered ? selfRegisteredNotice(p.redirectUri) : ''}<p>It asks for access to your CRM with these scopes:</p>
<ul>${scopes}</ul>
<p>You will be sent back to <code>${escapeHtml(p.redirectUri)}</code>.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request" value="${escapeHtml(p.sealed)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function errorPage(error: string, description: string): string {
  return page(
    'Authorization failed',
    `<h1>Authorization failed</h1>
<p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>
<p>The app that sent you here is misconfigured or the link is broken; you were not sent back to it.</p>`,
  );
}
