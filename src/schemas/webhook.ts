import { z } from 'zod';
import { buildOnce, lazySchema } from './lazy.js';
import { Label, Time, listEnvelope, listQueryFields } from './common.js';
import { EVENT_TYPES } from './event.js';

// Parts of the schemas below, built with the first of them (lazy.ts).
const WebhookUrl = buildOnce(() =>
  z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe('Where deliveries are POSTed (http or https)'),
);

const EnabledEvents = buildOnce(() =>
  z
    .array(z.enum(['*', ...EVENT_TYPES]))
    .min(1)
    .max(EVENT_TYPES.length)
    .refine((list) => !list.includes('*') || list.length === 1, { message: '"*" stands alone: it already means every type.' })
    .transform((list) => [...new Set(list)])
    .describe('["*"] for every event type, or a list of types'),
);

const Description = buildOnce(() => Label(0, 500).nullable());

export const WebhookEndpointCreate = lazySchema(() =>
  z
    .strictObject({
      url: WebhookUrl(),
      enabled_events: EnabledEvents().default(['*']),
      description: Description().optional(),
    })
    .meta({
      id: 'WebhookEndpointCreate',
      examples: [{ url: 'http://localhost:3000/webhooks', enabled_events: ['deal.won', 'invoice.paid'], description: 'Local receiver' }],
    }),
);

export const WebhookEndpointUpdate = lazySchema(() =>
  z
    .strictObject({
      url: WebhookUrl().optional(),
      enabled_events: EnabledEvents().optional(),
      description: Description().optional(),
      status: z.enum(['enabled', 'disabled']).optional().describe('disabled: nothing is sent; pending deliveries wait until it is enabled again'),
    })
    .meta({ id: 'WebhookEndpointUpdate' }),
);

export const WebhookEndpoint = lazySchema(() =>
  z
    .object({
      id: z.string(),
      url: z.string(),
      description: z.string().nullable(),
      enabled_events: z.array(z.string()),
      status: z.enum(['enabled', 'disabled']),
      disabled_reason: z.string().nullable().describe('Set when the sandbox disabled the endpoint (it answered 410 Gone)'),
      previous_secret_expires_at: z.string().nullable().describe('Until then the secret before the last rotation signs beside the current one'),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .meta({ id: 'WebhookEndpoint' }),
);

export const WebhookSecretRotate = lazySchema(() =>
  z
    .strictObject({
      expire_old: z
        .boolean()
        .default(false)
        .describe('true: the old secret stops signing at once (it leaked); false: it signs beside the new one for 24 h, so receivers can switch'),
    })
    .meta({ id: 'WebhookSecretRotate' }),
);

export const WebhookEndpointWithSecret = lazySchema(() =>
  WebhookEndpoint.unwrap()
    .extend({
      secret: z.string().describe('whsec_ + base64 of 32 random bytes; shown on create and on rotation only'),
    })
    .meta({ id: 'WebhookEndpointWithSecret' }),
);

export const WebhookEndpointList = lazySchema(() => listEnvelope(WebhookEndpoint.unwrap()).meta({ id: 'WebhookEndpointList' }));
export const WebhookEndpointListQuery = lazySchema(() => z.strictObject({ limit: listQueryFields().limit, cursor: listQueryFields().cursor }));

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookDelivery = lazySchema(() =>
  z
    .object({
      id: z.string(),
      endpoint_id: z.string(),
      event_id: z.string(),
      event_type: z.string(),
      attempt: z.number().int().describe('1..8 within a round of the retry schedule; a resend or recover starts a new round'),
      status: z.enum(DELIVERY_STATUSES),
      status_code: z.number().int().nullable().describe('The HTTP status the endpoint answered; null when none came'),
      duration_ms: z.number().int().nullable(),
      error: z.string().nullable(),
      next_attempt_at: z.string().nullable().describe('pending: when this attempt runs; failed: when the next is due; null: no more tries'),
      attempted_at: z.string().nullable(),
      created_at: z.string(),
    })
    .meta({ id: 'WebhookDelivery' }),
);

export const WebhookDeliveryList = lazySchema(() => listEnvelope(WebhookDelivery.unwrap()).meta({ id: 'WebhookDeliveryList' }));
export const WebhookDeliveryListQuery = lazySchema(() =>
  z.strictObject({
    limit: listQueryFields().limit,
    cursor: listQueryFields().cursor,
    event_id: z.string().max(100).optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
  }),
);

export const WebhookRecover = lazySchema(() =>
  z
    .strictObject({ since: Time().describe('Re-queue deliveries that failed for good and were first tried at or after this time') })
    .meta({ id: 'WebhookRecover' }),
);
export const WebhookRecoverResult = lazySchema(() => z.object({ endpoint_id: z.string(), requeued: z.number().int() }).meta({ id: 'WebhookRecoverResult' }));

export const EventResend = lazySchema(() =>
  z
    .strictObject({ endpoint_id: z.string().max(100).optional().describe('Only to this endpoint; by default to every enabled endpoint that takes the type') })
    .meta({ id: 'EventResend' }),
);
export const EventResendResult = lazySchema(() =>
  z.object({ event_id: z.string(), deliveries: z.array(WebhookDelivery.unwrap()) }).meta({ id: 'EventResendResult' }),
);

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;
export type WebhookEndpointUpdate = z.infer<typeof WebhookEndpointUpdate>;
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export type WebhookDeliveryListQuery = z.infer<typeof WebhookDeliveryListQuery>;
