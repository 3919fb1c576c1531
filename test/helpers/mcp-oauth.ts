import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { rawRequest } from './dashboard.js';

/**
 * An MCP client's side of OAuth, as the MCP SDK asks an app to provide it (Claude Desktop or the
 * Inspector keep these in their own storage): what it registered, its tokens, its PKCE verifier,
 * and the authorization URL it would open in the user's browser.
 */
export const MCP_REDIRECT = 'http://127.0.0.1:9/mcp-callback';

export class RecordingOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(private readonly name = 'Test MCP client') {}

  get redirectUrl(): string {
    return MCP_REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [MCP_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The sealed request in a consent page's form. */
const sealedRequest = (html: string) => /name="request" value="([^"]+)"/.exec(html)?.[1];

/**
 * What the user's browser does with the authorization URL: loads the consent page and presses
 * Approve on it, with the dashboard's session cookie when `cookie` is given (the form is posted
 * from the sandbox's own page, so with its Origin). Returns the page and the answer.
 */
export async function answerConsent(baseUrl: string, authorizationUrl: URL, cookie?: string, decision: 'approve' | 'deny' = 'approve') {
  const page = await rawRequest(baseUrl, 'GET', authorizationUrl.pathname + authorizationUrl.search, cookie ? { cookie } : {});
  const sealed = sealedRequest(page.body);
  if (page.status !== 200 || !sealed) throw new Error(`no consent page: ${page.status} ${page.body.slice(0, 300)}`);
  const answer = await rawRequest(
    baseUrl,
    'POST',
    '/oauth/authorize',
    { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl, ...(cookie ? { cookie } : {}) },
    new URLSearchParams({ request: sealed, decision }).toString(),
  );
  const location = typeof answer.headers.location === 'string' ? new URL(answer.headers.location) : undefined;
  return { page: page.body, answer, location, sealed };
}
