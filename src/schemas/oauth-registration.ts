import { z } from 'zod';
import { SCOPES } from './api-key.js';
import { Label } from './common.js';
import { lazySchema } from './lazy.js';
import { RedirectUri } from './oauth.js';

/**
 * The client metadata of a dynamic client registration (RFC 7591 §2), as far as the sandbox uses
 * it. Fields it does not know are ignored, as §2 requires (so not a strict object); the ones it
 * knows are checked as strictly as POST /v1/oauth_apps checks its own, because anyone who reaches
 * the port may send this.
 */
/** A space-separated list of the API's scopes (never `*`, which is for the account's own keys). */
const knownScopes = (value: string) =>
  value
    .trim()
    .split(/ +/)
    .every((name) => (SCOPES as readonly string[]).includes(name));

export const ClientRegistrationRequest = lazySchema(() =>
  z.object({
    redirect_uris: z.array(RedirectUri.unwrap()).min(1).max(10),
    client_name: Label(1, 100).optional(),
    // Only public clients: a secret would add nothing PKCE does not give, and one to keep.
    token_endpoint_auth_method: z.string().max(100).optional(),
    grant_types: z
      .array(z.enum(['authorization_code', 'refresh_token']))
      .max(2)
      .optional(),
    response_types: z.array(z.literal('code')).max(1).optional(),
    scope: z
      .string()
      .max(1000)
      .refine(knownScopes, { message: `Each scope must be one of: ${SCOPES.join(' ')}.` })
      .optional(),
  }),
);

export type ClientRegistrationRequest = z.infer<typeof ClientRegistrationRequest>;

/** What the registration answers (RFC 7591 §3.2.1): the metadata as registered. There is no client_secret. */
export interface ClientRegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope: string;
}
