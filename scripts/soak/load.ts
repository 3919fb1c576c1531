import type { ChaosSandbox } from './chaos.js';
import { SOAK_KEY, sleep } from './chaos.js';

/**
 * The load: writes with and without Idempotency-Key (keyed ones retried until answered, as a
 * Stripe client does, and some retried again on purpose after their answer), bulk upserts, lead
 * conversions, deal wins and invoice payments. The ledger records what the clients were told.
 */
export interface Ledger {
  requests: number;
  connectionErrors: number;
  /** Markers (external_id or title) of writes that were answered 2xx: each must exist exactly once. */
  confirmed: Set<string>;
  /** Markers of unkeyed writes whose answer was lost to a kill: 0 or 1 record is right. */
  ambiguous: Set<string>;
  /** Idempotency key -> the id of the record its first 2xx answer named; replays must name the same. */
  keys: Map<string, string>;
  keyMismatches: string[];
  converted: Set<string>;
  won: Set<string>;
  paid: Set<string>;
}

export function newLedger(): Ledger {
  return {
    requests: 0,
    connectionErrors: 0,
    confirmed: new Set(),
    ambiguous: new Set(),
    keys: new Map(),
    keyMismatches: [],
    converted: new Set(),
    won: new Set(),
    paid: new Set(),
  };
}

type Answer = { status: number; body: any } | undefined;

async function once(sandbox: ChaosSandbox, ledger: Ledger, method: string, path: string, body?: unknown, key?: string): Promise<Answer> {
  ledger.requests++;
  try {
    const res = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${SOAK_KEY}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    ledger.connectionErrors++;
    return undefined;
  }
}

/** A keyed write, sent until it is answered (and not 409 in-flight or 5xx), as a client that must not lose it. */
async function keyed(sandbox: ChaosSandbox, ledger: Ledger, method: string, path: string, body: unknown, key: string): Promise<Answer> {
  for (;;) {
    const answer = await once(sandbox, ledger, method, path, body, key);
    if (answer && answer.status < 500 && answer.status !== 409) {
      const id = answer.body?.id ?? JSON.stringify(answer.body?.summary ?? null);
      const seen = ledger.keys.get(key);
      if (seen === undefined) ledger.keys.set(key, id);
      else if (seen !== id) ledger.keyMismatches.push(`${key}: ${seen} then ${id}`);
      return answer;
    }
    if (answer?.status === 409 && answer.body?.code !== 'idempotency_key_in_use') return answer;
    await sleep(100);
  }
}

export async function runLoad(sandbox: ChaosSandbox, ledger: Ledger, rand: () => number, until: () => boolean, worker: number): Promise<void> {
  let n = 0;
  while (!until()) {
    const tag = `soak-${worker}-${n++}`;
    const pick = rand();
    if (pick < 0.3) {
      // A keyed lead, sometimes replayed on purpose after its answer.
      const lead = { first_name: 'Soak', last_name: tag, external_id: tag, email: `${tag}@example.com` };
      const answer = await keyed(sandbox, ledger, 'POST', '/v1/leads', lead, `k-${tag}`);
      if (answer?.status === 201) ledger.confirmed.add(tag);
      if (rand() < 0.3) await keyed(sandbox, ledger, 'POST', '/v1/leads', lead, `k-${tag}`);
      if (answer?.status === 201 && rand() < 0.3) {
        const conv = await keyed(sandbox, ledger, 'POST', `/v1/leads/${answer.body.id}/convert`, {}, `c-${tag}`);
        if (conv && conv.status < 300) ledger.converted.add(answer.body.id);
      }
    } else if (pick < 0.5) {
      // An unkeyed lead: if its answer is lost, the client cannot know whether it was written.
      const answer = await once(sandbox, ledger, 'POST', '/v1/leads', { first_name: 'Soak', last_name: tag, external_id: tag });
      if (answer?.status === 201) ledger.confirmed.add(tag);
      else if (!answer || answer.status >= 500) ledger.ambiguous.add(tag);
    } else if (pick < 0.65) {
      const records = Array.from({ length: 20 }, (_, i) => ({ first_name: 'Bulk', last_name: `${tag}-${i}`, external_id: `${tag}-${i}` }));
      const answer = await keyed(sandbox, ledger, 'POST', '/v1/leads/bulk', { mode: 'upsert', records }, `b-${tag}`);
      if (answer?.status === 200) for (const r of records) ledger.confirmed.add(r.external_id);
    } else if (pick < 0.85) {
      const deal = await keyed(
        sandbox,
        ledger,
        'POST',
        '/v1/deals',
        { title: tag, value: 100, currency: 'EUR', stage: 'qualified', external_id: tag },
        `d-${tag}`,
      );
      if (deal?.status === 201) {
        ledger.confirmed.add(tag);
        const win = await keyed(sandbox, ledger, 'POST', `/v1/deals/${deal.body.id}/win`, undefined, `w-${tag}`);
        if (win && win.status < 300) ledger.won.add(deal.body.id);
      }
    } else {
      const client = await keyed(sandbox, ledger, 'POST', '/v1/clients', { name: tag, email: `${tag}@example.com`, external_id: tag }, `cl-${tag}`);
      if (client?.status !== 201) continue;
      ledger.confirmed.add(tag);
      const invoice = await keyed(
        sandbox,
        ledger,
        'POST',
        '/v1/invoices',
        { client_id: client.body.id, line_items: [{ description: tag, quantity: 1, unit_price: 10 }] },
        `i-${tag}`,
      );
      if (invoice?.status !== 201) continue;
      const paid = await keyed(sandbox, ledger, 'POST', `/v1/invoices/${invoice.body.id}/pay`, undefined, `p-${tag}`);
      if (paid && paid.status < 300) ledger.paid.add(invoice.body.id);
    }
  }
}
