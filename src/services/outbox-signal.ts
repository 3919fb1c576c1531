import type { Db } from '../store/db.js';

/**
 * An in-process nudge for readers of the outbox (the event stream and the webhook worker): "new
 * events or deliveries may be there". It carries no data — readers query the tables — so a lost
 * or extra nudge costs a query, never an event. Writers call it inside their transaction; the
 * listeners run on a later turn of the event loop, after the synchronous transaction has
 * committed (or rolled back, and then they simply find nothing new). Bursts (a bulk write makes
 * a thousand events) coalesce into one wake-up.
 */
const listeners = new WeakMap<Db, Set<() => void>>();
const scheduled = new WeakSet<Db>();

export function onOutbox(db: Db, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function signalOutbox(db: Db): void {
  const set = listeners.get(db);
  if (!set?.size || scheduled.has(db)) return;
  scheduled.add(db);
  setImmediate(() => {
    scheduled.delete(db);
    for (const listener of [...set]) listener();
  });
}
