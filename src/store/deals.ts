import { toMajor } from '../domain/money.js';
import type { Deal } from '../schemas/deal.js';
import { rowCodec, type Row } from './rows.js';

/** Deals keep money as integer minor units in `value_minor`; the API speaks major units. */
const codec = rowCodec<Omit<Deal, 'value'> & { value_minor: number }>({ json: ['tags', 'custom_fields'] });

export function dealFromRow(row: Row): Deal {
  const { value_minor, id, external_id, title, ...rest } = codec.fromRow(row);
  return { id, external_id, title, value: toMajor(value_minor, rest.currency), ...rest };
}

export function dealToRow(deal: Deal, valueMinor: number): Row {
  const { value: _value, ...rest } = deal;
  return codec.toRow({ ...rest, value_minor: valueMinor });
}
