/**
 * The operations no route schema describes, written out for the OpenAPI document: the OAuth 2.0
 * protocol endpoints (forms in, RFC 6749 errors or HTML pages out; the authorization server metadata
 * advertises them, so the document must list them too) and the document itself. Their routes parse
 * their own input (src/http/routes/oauth.ts), so these descriptions are checked against the server
 * by the conformance test (test/e2e/openapi-conformance.test.ts), not by a validator.
 */
type Json = Record<string, any>;

const text = (description: string, maxLength = 2000): Json => ({ type: 'string', maxLength, description });
const html = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string', maxLength: 100_000 } } } });
const oauthError = (description: string): Json => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } } });
const redirect = (description: string): Json => ({
  description,
  headers: {
    Location: {
      description: "The app's redirect URI with `code` and `state` (or `error`, `error_description`, `state`) and `iss` (RFC 9207).",
      schema: { type: 'string', maxLength: 4000 },
    },
  },
});
const form = (schema: Json): Json => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });
const query = (name: string, description: string, required = false): Json => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'string', maxLength: 2000 },
});

const clientAuth = {
  client_id: text("The app's client_id, when the client does not authenticate with HTTP Basic.", 200),
  client_secret: text("The app's client secret, when the client does not authenticate with HTTP Basic (one method only).", 200),
};

export const PROTOCOL_SCHEMAS: Json = {
  OAuthError: {
    type: 'object',
    description: 'An RFC 6749 §5.2 error.',
    properties: {
      error: {
        type: 'string',
        maxLength: 100,
        description: 'invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope or server_error',
      },
      error_description: { type: 'string', maxLength: 1000 },
    },
    required: ['error', 'error_description'],
  },
  OAuthTokens: {
    type: 'object',
    description: 'An RFC 6749 §5.1 token response.',
    properties: {
      access_token: { type: 'string', maxLength: 200, description: 'Valid 1 hour; send it as `Authorization: Bearer …`.' },
      token_type: { type: 'string', enum: ['Bearer'] },
      expires_in: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400, description: 'Seconds the access token is valid.' },
      refresh_token: { type: 'string', maxLength: 200, description: 'Valid 30 days, single use (each use returns a new one); not for client_credentials.' },
      scope: { type: 'string', maxLength: 2000, description: 'The granted scopes, space-separated.' },
    },
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
  },
};

const tooLarge = oauthError('`invalid_request`: the body is larger than 64 KB.');
const wrongType = oauthError('`invalid_request`: the body is not application/x-www-form-urlencoded.');
/** 401 of the endpoints where an OAuth client authenticates (token, revoke): its credentials were refused. */
const clientRefused: Json = {
  ...oauthError('`invalid_client`'),
  headers: { 'WWW-Authenticate': { description: '`Basic realm="crm"`', schema: { type: 'string', maxLength: 100 } } },
};

export const PROTOCOL_PATHS: Json = {
  '/oauth/authorize': {
    get: {
      tags: ['OAuth'],
      security: [],
      operationId: 'oauth.authorize',
      summary: 'The consent page of the authorization code flow (PKCE S256 required)',
      description:
        "Opened in the user's browser. A request the app cannot be told about (unknown client, unregistered redirect URI) is an error page; any other error is a redirect to the app with `error`.",
      parameters: [
        query('response_type', '`code`, the only response type.', true),
        query('client_id', "The app's client_id.", true),
        query('redirect_uri', "One of the app's registered redirect URIs, exactly.", true),
        query('code_challenge', 'BASE64URL(SHA-256(code_verifier)), 43 characters.', true),
        query('code_challenge_method', '`S256`, the only method.', true),
        query('scope', 'Space-separated scopes, at most those of the app (all of them when absent).'),
        query('state', 'Returned to the app unchanged (up to 1000 characters).'),
      ],
      responses: {
        200: html('The consent page: Approve or Deny.'),
        302: redirect('Back to the app with an error.'),
        400: html('The error page: the client or the redirect URI is unknown or missing.'),
      },
    },
    post: {
      tags: ['OAuth'],
      security: [],
      operationId: 'oauth.decide',
      summary: "The consent page's answer: approve or deny",
      requestBody: form({
        type: 'object',
        properties: { request: text('The sealed request the consent page carries.', 4000), decision: { type: 'string', enum: ['approve', 'deny'] } },
        required: ['request', 'decision'],
      }),
      responses: {
        302: redirect('Back to the app with a code (approve) or `error=access_denied` (deny).'),
        400: html('The error page: the form was altered, expired or incomplete.'),
        413: html('The error page: the body is larger than 64 KB.'),
        415: html('The error page: the body is not a form.'),
      },
    },
  },
  '/oauth/token': {
    post: {
      tags: ['OAuth'],
      security: [{ clientBasic: [] }, {}],
      operationId: 'oauth.token',
      summary: 'Exchange a code, a refresh token or client credentials for tokens',
      description: 'The client authenticates with HTTP Basic (client_id:client_secret) or with both in the body, one method only.',
      requestBody: form({
        type: 'object',
        properties: {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token', 'client_credentials'] },
          code: text('authorization_code: the code the redirect carried (60 s, single use).', 200),
          redirect_uri: text('authorization_code: the redirect URI of the authorization request.'),
          code_verifier: text('authorization_code: the PKCE verifier.', 200),
          refresh_token: text('refresh_token: the refresh token.', 200),
          scope: text('refresh_token, client_credentials: fewer scopes than granted (space-separated).'),
          ...clientAuth,
        },
        required: ['grant_type'],
      }),
      responses: {
        200: { description: 'The tokens.', content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthTokens' } } } },
        400: oauthError('`invalid_request`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope`'),
        401: clientRefused,
        413: tooLarge,
        415: wrongType,
      },
    },
  },
  '/oauth/revoke': {
    post: {
      tags: ['OAuth'],
      security: [{ clientBasic: [] }, {}],
      operationId: 'oauth.revoke',
      summary: 'Revoke an access or refresh token (RFC 7009)',
      description: 'Revoking a refresh token revokes its family. An unknown token is not an error (RFC 7009 §2.2).',
      requestBody: form({
        type: 'object',
        properties: { token: text('The token to revoke.', 200), token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] }, ...clientAuth },
        required: ['token'],
      }),
      responses: {
        200: { description: 'Revoked, or unknown.' },
        400: oauthError('`invalid_request`'),
        401: clientRefused,
        413: tooLarge,
        415: wrongType,
      },
    },
  },
  '/v1/openapi.json': {
    get: {
      tags: ['Sandbox'],
      security: [],
      operationId: 'openapi.get',
      summary: 'This OpenAPI 3.1 document, with the address the sandbox listens on as its server',
      description:
        "Without a credential, the generic document. With one (`Authorization: Bearer …`), that account's: each record's `custom_fields` has the account's fields as typed properties (enums for options) and nothing else.",
      responses: {
        200: { description: 'The document.', content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } } },
        401: {
          description: 'A credential was sent that is unknown, revoked or expired.',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
        429: {
          description: 'Too many refused credentials from this address (counted with every route).',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    },
  },
};

/** HTTP Basic with the app's client_id and client secret, for the token and revocation endpoints. */
export const CLIENT_BASIC = { type: 'http', scheme: 'basic', description: "An OAuth app's client_id and client secret (form-encoded, RFC 6749 §2.3.1)" };
