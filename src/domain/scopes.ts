/** `x:write` implies `x:read`; `*` grants everything (API.md §3). */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes('*') || granted.includes(needed)) return true;
  return needed.endsWith(':read') && granted.includes(needed.replace(/:read$/, ':write'));
}
