import { toMajor } from '../domain/money.js';
import type { Deal } from '../schemas/deal.js';
import type { Db } from './db.js';
import { perDb, rowJsonSql } from './list-json.js';
import { majorUnitsSql } from './money-sql.js';
import { deleteRow, getRow, insertRow, rowCodec, stmt, updateRow, type Row } from './rows.js';

/** Deals keep money as integer minor units in `value_minor`; the API speaks major units. */
const COLUMNS = { json: ['tags', 'custom_fields'] };
const codec = rowCodec<Omit<Deal, 'value'> & { value_minor: number }>(COLUMNS);

function dealFromRow(row: Row): Deal {
  const { value_minor, id, external_id, title, ...rest } = codec.fromRow(row);
  return { id, external_id, title, value: toMajor(value_minor, rest.currency), ...rest };
}

function dealToRow(deal: Deal, valueMinor: number): Row {
  const { value: _value, ...rest } = deal;
  return codec.toRow({ ...rest, value_minor: valueMinor });
}

/**
 * A deal row as its JSON, made by SQLite (for the list: list-json.ts), as dealFromRow gives it.
 * win_probability is a REAL: SQLite prints it with up to 17 digits where JavaScript prints the
 * shortest form (1/3 as 0.33333333333333331, not 0.3333333333333333): the same number either way.
 * 0 and 1 are printed as integers, as JavaScript does.
 */
export const dealJsonSql = perDb((db: Db) =>
  rowJsonSql(db, {
    table: 'deals',
    ...COLUMNS,
    replace: {
      value_minor: ['value', majorUnitsSql('value_minor', 'currency')],
      win_probability: ['win_probability', 'iif(win_probability IN (0, 1), CAST(win_probability AS INTEGER), win_probability)'],
    },
  }),
);

export function findDeal(db: Db, id: string): Deal | undefined {
  const row = getRow(db, 'deals', id);
  return row && dealFromRow(row);
}

/** The deal's row, with its value as the integer minor units the caller has checked. */
export const insertDeal = (db: Db, deal: Deal, valueMinor: number): void => insertRow(db, 'deals', dealToRow(deal, valueMinor));

/** Writes every field of a stored deal. */
export const writeDeal = (db: Db, deal: Deal, valueMinor: number): void => updateRow(db, 'deals', dealToRow(deal, valueMinor));

export const deleteDealRow = (db: Db, id: string): boolean => deleteRow(db, 'deals', id);

export const dealIdsOfClient = (db: Db, clientId: string): string[] => stmt(db, 'SELECT id FROM deals WHERE client_id = ?').pluck().all(clientId) as string[];

/** The deal no longer belongs to a client (the client is being deleted). */
export function unlinkDealFromClient(db: Db, dealId: string, now: string): void {
  stmt(db, 'UPDATE deals SET client_id = NULL, updated_at = ? WHERE id = ?').run(now, dealId);
}
