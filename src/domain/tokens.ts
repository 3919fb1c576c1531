import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `prefix` + `length` random base62 characters: the form of every secret a user copies (API keys,
 * OAuth client secrets, codes and tokens). Base62 is safe in URLs, forms and headers as it is; 43
 * characters hold ≈256 bits, 32 ≈190 bits.
 */
export function randomToken(prefix: string, length = 43): string {
  let out = prefix;
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}
