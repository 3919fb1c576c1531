import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { Label } from './common.js';
import { SCOPES } from './api-key.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can. Codes travel to it in the
 * query, so it must be exact and safe: absolute, no fragment (RFC 6749 §3.1.2), no user info,
 * and https except on the loopback address where a native app or a developer listens.
 */
function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Expected an absolute URL.';
  }
  if (value.includes('#')) return 'A redirect URI must not have a fragment.';
  if (url.username || url.password) return 'A redirect URI must not carry user info.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'http is allowed only for localhost and 127.0.0.1; use https.';
  return 'A redirect URI must use https (or http on localhost).';
}

export const RedirectUri = lazySchema(() =>
  z
    .string()
    .max(2000)
    .superRefine((value, ctx) => {
      const problem = redirectUriProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('Absolute https URL (http only for localhost and 127.0.0.1), no fragment; matched exactly'),
);

/** Third-party apps name the scopes they need: `*` is for the account's own keys only. */
const OAuthScope = lazySchema(() => z.enum(SCOPES));

export const OAuthAppCreate = lazySchema(() =>
  z
    .strictObject({
      name: Label(1, 100),
      redirect_uris: z.array(RedirectUri.unwrap()).min(1).max(10),
      scopes: z.array(OAuthScope.unwrap()).min(1).max(SCOPES.length).describe('The most this app may ask for'),
    })
    .meta({ id: 'OAuthAppCreate' }),
);

export const OAuthApp = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      client_id: z.string(),
      redirect_uris: z.array(z.string()),
      scopes: z.array(z.string()),
      registered_by: z
        .string()
        .nullable()
        .describe(
          'The API key (key_…), or the OAuth app (app_…) whose token, registered the app. Revoking that key leaves the app working: if the key leaked, delete its apps too. Null for apps registered before this was recorded, and for self-registered ones',
        ),
      self_registered: z
        .boolean()
        .describe(
          'True when an OAuth client (an MCP client) registered itself through dynamic client registration (POST /oauth/register): nobody on the team made it, its name is the one the client chose, it has no secret, and only a signed-in dashboard user can approve it',
        ),
      created_at: z.string(),
    })
    .meta({ id: 'OAuthApp' }),
);

export const OAuthAppWithSecret = lazySchema(() =>
  OAuthApp.unwrap()
    .extend({ client_secret: z.string().describe('Shown once, at creation') })
    .meta({
      id: 'OAuthAppWithSecret',
    }),
);

/** RFC 8414 authorization server metadata, as the sandbox publishes it. */
export const AuthorizationServerMetadata = lazySchema(() =>
  z
    .object({
      issuer: z.string(),
      authorization_endpoint: z.string(),
      token_endpoint: z.string(),
      revocation_endpoint: z.string(),
      registration_endpoint: z.string().describe('Dynamic client registration (RFC 7591) for public clients such as MCP clients'),
      scopes_supported: z.array(z.string()),
      response_types_supported: z.array(z.string()),
      response_modes_supported: z.array(z.string()),
      grant_types_supported: z.array(z.string()),
      token_endpoint_auth_methods_supported: z.array(z.string()),
      revocation_endpoint_auth_methods_supported: z.array(z.string()),
      code_challenge_methods_supported: z.array(z.string()),
      authorization_response_iss_parameter_supported: z.boolean(),
    })
    .meta({ id: 'AuthorizationServerMetadata' }),
);

export type OAuthApp = z.infer<typeof OAuthApp>;
export type OAuthAppCreate = z.infer<typeof OAuthAppCreate>;
