/** Every scope a key or token can hold (docs/reference/access.md#scopes); plain data, so the CLI loads it without zod. */
export const SCOPES = [
  'leads:read',
  'leads:write',
  'clients:read',
  'clients:write',
  'deals:read',
  'deals:write',
  'invoices:read',
  'invoices:write',
  'fields:read',
  'fields:write',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'keys:read',
  'keys:write',
  'usage:read',
  'logs:read',
  'assistant:use',
] as const;

/** `x:write` implies `x:read`; `*` grants everything (docs/reference/access.md#scopes). */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes('*') || granted.includes(needed)) return true;
  return needed.endsWith(':read') && granted.includes(needed.replace(/:read$/, ':write'));
}

/** The first of `needed` that `granted` does not cover, or undefined when it covers them all. */
export function missingScope(granted: readonly string[], needed: readonly string[]): string | undefined {
  return needed.find((s) => !hasScope(granted, s));
}
