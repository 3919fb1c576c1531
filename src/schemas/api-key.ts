import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { Label } from './common.js';
import { SCOPES } from '../domain/scopes.js';

export { SCOPES } from '../domain/scopes.js';

const ScopeName = lazySchema(() => z.enum([...SCOPES, '*']));

export const ApiKeyCreate = lazySchema(() =>
  z
    .strictObject({
      name: Label(1, 100),
      scopes: z
        .array(ScopeName.unwrap())
        .min(1)
        .max(SCOPES.length + 1),
      expires_at: z.iso.datetime({ offset: true }).max(64).optional(),
    })
    .meta({ id: 'ApiKeyCreate', examples: [{ name: 'ci', scopes: ['leads:read', 'deals:read'] }] }),
);

export const ApiKey = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      scopes: z.array(z.string()),
      prefix: z.string(),
      last4: z.string(),
      created_at: z.string(),
      expires_at: z.string().nullable(),
      last_used_at: z.string().nullable(),
      revoked_at: z.string().nullable(),
    })
    .meta({ id: 'ApiKey' }),
);

export const ApiKeyWithSecret = lazySchema(() =>
  ApiKey.unwrap()
    .extend({ secret: z.string().describe('Shown once, at creation') })
    .meta({
      id: 'ApiKeyWithSecret',
    }),
);

export type ApiKey = z.infer<typeof ApiKey>;
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;
