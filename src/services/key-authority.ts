import { missingScope } from '../domain/scopes.js';
import { ApiError, insufficientScope } from '../errors.js';
import type { Principal } from './api-keys.js';

/**
 * Who may manage which credentials (docs/security.md#keys-tokens-and-sessions). A key, a dashboard session (acting as its key)
 * or an OAuth access token with `keys:write` manages only keys and OAuth apps whose scopes are
 * within its own, and never mints one that outlives it. Otherwise `keys:write` alone would be
 * `*`: revoke the admin key, or turn a key that expires in two minutes into one that never does.
 */

/** A credential named for a refusal: what it is and which one. */
interface Target {
  kind: 'key' | 'OAuth app';
  id: string;
  scopes: readonly string[];
}

/** 403 unless the actor holds every scope the target holds (`*` is covered by `*` alone). */
export function requireAuthorityOver(actor: Principal | null, verb: 'revoke' | 'delete', target: Target): void {
  const missing = missingScope(actor?.scopes ?? [], target.scopes);
  if (!missing) return;
  throw insufficientScope(
    missing,
    `This key lacks the scope '${missing}' that ${target.kind} ${target.id} holds: a key may ${verb} only ${target.kind}s whose scopes are within its own.`,
  );
}

/** 403 unless the actor holds every scope it hands out. */
export function requireScopesToGrant(actor: Principal | null, kind: Target['kind'], scopes: readonly string[]): void {
  const missing = missingScope(actor?.scopes ?? [], scopes);
  if (!missing) return;
  throw insufficientScope(missing, `This key lacks the scope '${missing}': a key can create only ${kind}s with scopes it holds itself.`);
}

/**
 * 422 on `expires_at` when a key would outlive its creator: an expiring creator must give an
 * expiry, at most its own. The detail names that latest allowed instant, so the caller can retry
 * with it (refused, not clamped: a key that silently expires early breaks later, far from here).
 */
export function requireLifetimeWithin(actor: Principal | null, expiresAt: string | undefined): void {
  const limit = actor?.expiresAt ?? null;
  if (limit === null) return;
  if (expiresAt !== undefined && Date.parse(expiresAt) <= limit) return;
  const latest = new Date(limit).toISOString();
  const message =
    expiresAt === undefined
      ? `This key or token expires at ${latest}, so a key it creates must expire too: set expires_at to ${latest} or earlier.`
      : `expires_at is after ${latest}, when this key or token expires: a key it creates may live at most until then.`;
  throw new ApiError('validation_failed', message, { errors: [{ path: 'expires_at', code: 'outlives_creator', message }] });
}

/** OAuth apps do not expire, and their client credentials mint tokens for ever: only a credential that does not expire may register one. */
export function requireNonExpiring(actor: Principal | null): void {
  const limit = actor?.expiresAt ?? null;
  if (limit === null) return;
  throw new ApiError(
    'insufficient_scope',
    `This key or token expires at ${new Date(limit).toISOString()}, and an OAuth app never does: register apps with a key that does not expire.`,
  );
}
