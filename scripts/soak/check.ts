import Database from 'better-sqlite3';
import type { Received } from '../../test/helpers/receiver.js';
import type { Ledger } from './load.js';

/**
 * The checker: reads the SQLite file directly after the run and compares it with what the clients
 * were told (the ledger) and what the webhook receivers got. Every failed property is a line in
 * `failures`; the figures go to the report.
 */
export interface Figures {
  events: number;
  deliveriesSucceeded: number;
  receipts: number;
  duplicatesDelivered: number;
  lost: number;
  doubled: number;
  ambiguousWritten: number;
}

export function check(
  dbPath: string,
  ledger: Ledger,
  receivers: { name: string; received: Received[] }[],
  followers: { name: string; ids: string[] }[] = [],
): { failures: string[]; figures: Figures } {
  const db = new Database(dbPath, { readonly: true });
  const failures: string[] = [];
  const fail = (line: string) => failures.length < 50 && failures.push(line);
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') fail(`integrity_check: ${integrity}`);

    // Every confirmed write exists exactly once (leads, deals and clients carry the marker as external_id).
    const byMarker = new Map<string, number>();
    for (const table of ['leads', 'deals', 'clients']) {
      for (const row of db.prepare(`SELECT external_id AS m, count(*) AS n FROM ${table} WHERE external_id LIKE 'soak-%' GROUP BY external_id`).all() as {
        m: string;
        n: number;
      }[]) {
        byMarker.set(row.m, (byMarker.get(row.m) ?? 0) + row.n);
      }
    }
    let lost = 0;
    let doubled = 0;
    for (const marker of ledger.confirmed) {
      const n = byMarker.get(marker) ?? 0;
      if (n === 0) lost++, fail(`lost: ${marker} was confirmed but is not stored`);
    }
    for (const [marker, n] of byMarker) if (n > 1) doubled++, fail(`doubled: ${marker} stored ${n} times`);
    const ambiguousWritten = [...ledger.ambiguous].filter((m) => byMarker.has(m)).length;
    for (const mismatch of ledger.keyMismatches) doubled++, fail(`idempotency key answered two records: ${mismatch}`);

    // Each record has exactly the events its history implies.
    const eventCount = db.prepare('SELECT type, object_id, count(*) AS n FROM events GROUP BY type, object_id').all() as {
      type: string;
      object_id: string;
      n: number;
    }[];
    const events = new Map(eventCount.map((e) => [`${e.type} ${e.object_id}`, e.n]));
    const expectOne = (type: string, id: string) => {
      const n = events.get(`${type} ${id}`) ?? 0;
      if (n !== 1) n === 0 ? lost++ : doubled++, fail(`${type} for ${id}: ${n} events, expected 1`);
    };
    for (const row of db.prepare("SELECT id, status FROM leads WHERE external_id LIKE 'soak-%'").all() as { id: string; status: string }[]) {
      expectOne('lead.created', row.id);
      if (row.status === 'converted') expectOne('lead.converted', row.id);
      else if (events.has(`lead.converted ${row.id}`)) doubled++, fail(`lead.converted event for ${row.id}, which is not converted`);
    }
    for (const row of db.prepare("SELECT id, stage FROM deals WHERE external_id LIKE 'soak-%'").all() as { id: string; stage: string }[]) {
      expectOne('deal.created', row.id);
      if (row.stage === 'won') expectOne('deal.won', row.id);
    }
    for (const row of db.prepare('SELECT id, status FROM invoices').all() as { id: string; status: string }[]) {
      expectOne('invoice.created', row.id);
      if (row.status === 'paid') expectOne('invoice.paid', row.id);
    }
    for (const id of ledger.converted) if (!events.has(`lead.converted ${id}`)) lost++, fail(`conversion of ${id} was confirmed, no event`);
    for (const id of ledger.won) if (!events.has(`deal.won ${id}`)) lost++, fail(`win of ${id} was confirmed, no event`);
    for (const id of ledger.paid) if (!events.has(`invoice.paid ${id}`)) lost++, fail(`payment of ${id} was confirmed, no event`);

    // Webhooks: every event reached every receiver (all endpoints subscribe to "*") with a 2xx answer,
    // at least once; deduplicated by webhook-id, exactly once; and no id that is not an event.
    const eventIds = new Set(db.prepare('SELECT id FROM events').pluck().all() as string[]);
    let duplicatesDelivered = 0;
    let receipts = 0;
    for (const { name, received } of receivers) {
      const ok = received.filter((r) => r.status >= 200 && r.status < 300);
      receipts += ok.length;
      const ids = new Set(ok.map((r) => r.id));
      duplicatesDelivered += ok.length - ids.size;
      for (const id of eventIds) if (!ids.has(id)) lost++, fail(`${name} never got ${id} with a 2xx`);
      for (const id of ids) if (!eventIds.has(id)) fail(`${name} got ${id}, which is no event`);
    }
    // The SSE reader and crm listen saw every event once, in order (the event log's order: by id).
    const inOrder = [...eventIds].sort();
    for (const { name, ids } of followers) {
      const seen = new Set(ids);
      const repeated = ids.length - seen.size;
      if (repeated) doubled++, fail(`${name} saw ${repeated} events more than once`);
      const missing = inOrder.filter((id) => !seen.has(id));
      if (missing.length) (lost += missing.length), fail(`${name} never saw ${missing.length} events, first ${missing[0]}`);
      const disorder = ids.findIndex((id, i) => i > 0 && id <= ids[i - 1]!);
      if (disorder > 0) fail(`${name} saw ${ids[disorder]} after ${ids[disorder - 1]}: out of order`);
    }

    const pending = db
      .prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' OR (status = 'failed' AND next_attempt_at IS NULL)")
      .pluck()
      .get() as number;
    if (pending) fail(`${pending} deliveries still pending or given up after the scaled schedule`);
    const deliveriesSucceeded = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'succeeded'").pluck().get() as number;
    return { failures, figures: { events: eventIds.size, deliveriesSucceeded, receipts, duplicatesDelivered, lost, doubled, ambiguousWritten } };
  } finally {
    db.close();
  }
}
