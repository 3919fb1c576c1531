import { describe, expect, it } from 'vitest';
import { inNameOrder, isSmallTree, isSorted } from '../../src/json-tree.js';
import { canonicalJson } from '../../src/services/idempotency.js';

/** Every object's member names, depth first, as a reader of the JSON text would meet them. */
function namesInTextOrder(value: unknown): string[][] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(namesInTextOrder);
  const names = Object.keys(value);
  return [names, ...names.flatMap((name) => namesInTextOrder((value as Record<string, unknown>)[name]))];
}

describe('inNameOrder (what crm sync sends)', () => {
  const client = {
    name: 'Client 1 GmbH',
    address: { line1: 'Street 1', city: 'Berlin', country: 'DE' },
    contacts: [{ first_name: 'Anna', last_name: 'Meier', email: 'anna@example.com', role: 'CEO' }],
    custom_fields: { tier: 'gold', region: 'north' },
    tags: ['vip', 'b2b'],
  };

  it('puts the members of the record and of the objects inside it in name order, values unchanged', () => {
    const ordered = inNameOrder(client);
    expect(ordered).toEqual(client);
    expect(Object.keys(ordered)).toEqual(['address', 'contacts', 'custom_fields', 'name', 'tags']);
    expect(Object.keys(ordered.address as object)).toEqual(['city', 'country', 'line1']);
    expect(Object.keys((ordered.contacts as object[])[0]!)).toEqual(['email', 'first_name', 'last_name', 'role']);
    expect(ordered.tags).toEqual(['vip', 'b2b']); // arrays keep their order
  });

  it("keeps custom_fields in the user's order, and never changes the record it was given", () => {
    const before = JSON.stringify(client);
    const ordered = inNameOrder(client);
    expect(Object.keys(ordered.custom_fields as object)).toEqual(['tier', 'region']);
    expect(JSON.stringify(client)).toBe(before);
  });

  it('makes a record whose canonical JSON is its JSON text (the server fingerprints it natively), custom_fields aside', () => {
    const ordered = inNameOrder({ ...client, custom_fields: { region: 'north', tier: 'gold' } });
    expect(namesInTextOrder(ordered).every(isSorted)).toBe(true);
    expect(isSmallTree(ordered, 3, isSorted)).toBe(true);
    expect(JSON.stringify(ordered)).toBe(canonicalJson(client));
    expect(isSmallTree(inNameOrder(client), 3, isSorted)).toBe(false); // tier before region: the user's order stays
  });

  it('returns what is in order already as it is, without a copy', () => {
    const sorted = { address: { city: 'Berlin', country: 'DE' }, contacts: [{ email: 'a@example.com' }], name: 'X' };
    expect(inNameOrder(sorted)).toBe(sorted);
    const nestedOnly = { address: { country: 'DE', city: 'Berlin' }, name: 'X' };
    const ordered = inNameOrder(nestedOnly);
    expect(ordered).not.toBe(nestedOnly);
    expect(Object.keys(ordered.address as object)).toEqual(['city', 'country']);
  });

  it('leaves what nests deeper than a small tree as it is, however deep (a JSON Lines record)', () => {
    let deep: Record<string, unknown> = { z: 1, a: 2 };
    for (let i = 0; i < 100_000; i++) deep = { inner: deep };
    const ordered = inNameOrder({ name: 'X', extra: deep });
    expect(Object.keys(ordered)).toEqual(['extra', 'name']);
    expect(ordered.extra).toBe(deep);
  });
});
