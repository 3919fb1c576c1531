import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ClientCreate } from '../schemas/client.js';
import { DealCreate } from '../schemas/deal.js';
import { InvoiceCreate } from '../schemas/invoice.js';
import { LeadCreate } from '../schemas/lead.js';
import { createClient } from '../services/clients.js';
import type { Ctx } from '../services/context.js';
import { inTransaction } from '../services/transactions.js';
import { createDeal } from '../services/deals.js';
import { createInvoice } from '../services/invoices.js';
import { createLead } from '../services/leads.js';
import { clientIdByExternalId } from '../store/seed-fill.js';

/**
 * `--fixtures DIR` loads your own records: DIR/clients.json, leads.json, deals.json and
 * invoices.json, each an array of create bodies (the same as POST /v1/x). Deals and invoices
 * may name their client by `client_external_id` instead of `client_id`, since ids are only
 * known once the sandbox made them.
 */
const FILES = [
  ['clients.json', ClientCreate, createClient],
  ['leads.json', LeadCreate, createLead],
  ['deals.json', DealCreate, createDeal],
  ['invoices.json', InvoiceCreate, createInvoice],
] as const;

export class FixtureError extends Error {
  // `crm sandbox start` tells fixture problems apart by name (the class is loaded lazily there).
  override name = 'FixtureError';
}

export function loadFixtures(ctx: Ctx, dir: string): Record<string, number> {
  if (!existsSync(dir)) throw new FixtureError(`Fixtures folder not found: ${dir}`);
  const loaded: Record<string, number> = {};
  inTransaction(ctx, () => {
    for (const [file, schema, create] of FILES) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      let records: unknown;
      try {
        records = JSON.parse(readFileSync(path, 'utf8'));
      } catch (e) {
        throw new FixtureError(`${path}: not valid JSON (${(e as Error).message})`);
      }
      if (!Array.isArray(records)) throw new FixtureError(`${path}: expected a JSON array of records`);
      records.forEach((record: unknown, index) => {
        const resolved = resolveClientRef(ctx, record, `${path}[${index}]`);
        const parsed = (schema as z.ZodType).safeParse(resolved);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ');
          throw new FixtureError(`${path}[${index}]: ${issues}`);
        }
        (create as (ctx: Ctx, input: unknown) => unknown)(ctx, parsed.data);
      });
      loaded[file.replace('.json', '')] = records.length;
    }
  });
  return loaded;
}

function resolveClientRef(ctx: Ctx, record: unknown, where: string): unknown {
  if (typeof record !== 'object' || record === null || !('client_external_id' in record)) return record;
  const { client_external_id, ...rest } = record as { client_external_id: unknown };
  const id = clientIdByExternalId(ctx.db, client_external_id);
  if (!id) throw new FixtureError(`${where}: no client with external_id '${String(client_external_id)}'`);
  return { ...rest, client_id: id };
}
