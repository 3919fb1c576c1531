import type { FieldObject } from '../domain/custom-fields.js';

/**
 * The one list of an account's tables, by what happens to them. Reset (seed/fill.ts), the seed
 * image (seed/seed-image.ts) and snapshots (accounts/snapshots.ts) each used to keep their own
 * list; test/unit/account-tables.test.ts checks that every table of a migrated database is named
 * here, so a new table has to be given its place.
 */

/**
 * The account's data: what the seed and fixtures write, a reset empties and the seed image holds.
 * Parents before children (foreign keys): the order to insert; deletes go the other way.
 */
export const DATA_TABLES = ['clients', 'contacts', 'leads', 'deals', 'invoices', 'mailbox', 'events'] as const;

/**
 * What a snapshot holds besides the data: the webhook deliveries of its events (a reset drops
 * them with the events, by ON DELETE CASCADE) and the idempotency keys. A reset keeps those: they
 * also answer retries of configuration writes (API keys, webhook endpoints, accounts), which a
 * reset keeps too, so a retry after a reset must not make a second one. The price: a retried
 * create of a record the reset deleted replays its old answer.
 */
export const SNAPSHOT_TABLES = [...DATA_TABLES, 'webhook_deliveries', 'idempotency_keys'] as const;

/**
 * Configuration the seed makes: the custom fields its records hold values of. The seed image may
 * carry them (a sandbox made from the whole image file gets them as the seed made them); a reset,
 * which keeps configuration, defines only those missing.
 */
export const SEED_CONFIGURATION_TABLES = ['fields'] as const;

/** Configuration: kept by a reset and a restore alike (docs/accounts.md). */
export const CONFIGURATION_TABLES = [
  'api_keys',
  'oauth_apps',
  'oauth_codes',
  'oauth_tokens',
  'oauth_consents_answered',
  'dashboard_logins',
  'dashboard_sessions',
  'webhook_endpoints',
  'fields',
] as const;

/** The account's own records of its traffic, and its people's assistant conversations: kept by a reset and a restore. */
export const TRAFFIC_TABLES = ['usage_counters', 'request_logs', 'assistant_conversations', 'assistant_messages', 'assistant_confirmations'] as const;

/** Of the default account's database only: the sandbox's registry of accounts and their snapshots. */
export const REGISTRY_TABLES = ['accounts', 'account_snapshots'] as const;

/** The table of each object a team defines custom fields for (domain/custom-fields.ts). */
export const FIELD_OBJECT_TABLES: Readonly<Record<FieldObject, string>> = { lead: 'leads', client: 'clients', deal: 'deals' };

/** Rows made from other tables (the search index, by triggers) and SQLite's or the migrations' own. */
export const DERIVED_TABLE = /^(\w+_search(_\w+)?|sqlite_\w+|schema_migrations|meta)$/;

/** The meta keys that are data: the invoice numbering, which a reset starts again and the seed image holds. */
export const DATA_META_KEYS = ['invoice_seq'] as const;

/** The meta key of the account's test clock: how far it is ahead of real time. */
export const CLOCK_OFFSET_KEY = 'clock_offset_ms';

/** What a snapshot holds of meta: the invoice numbering and the clock. */
export const SNAPSHOT_META_KEYS = [...DATA_META_KEYS, CLOCK_OFFSET_KEY] as const;
