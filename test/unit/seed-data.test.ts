import { afterAll, describe, expect, it } from 'vitest';
import { asciiWord, emailLocalPart } from '../../src/seed/ascii.js';
import { CITIES } from '../../src/seed/seed-data.js';
import { seed } from '../../src/seed/seed.js';
import { createContext } from '../../src/services/context.js';
import { inTransaction } from '../../src/services/transactions.js';
import { openDb } from '../../src/store/db.js';

/**
 * Seed data a person would believe: emails in ASCII made from the whole name (Łukasz → lukasz,
 * not ukasz), and each client's street, city, country and phone numbers from one place.
 */
const ctx = createContext(openDb(':memory:'), () => 'http://sandbox.test');
inTransaction(ctx, () => seed(ctx, 1));
afterAll(() => ctx.db.close());

const rows = <T>(sql: string) => ctx.db.prepare(sql).all() as T[];

describe('ASCII email local parts', () => {
  it('spell names the way their languages romanise them', () => {
    expect(asciiWord('Łukasz')).toBe('lukasz');
    expect(asciiWord('Søren')).toBe('soren');
    expect(asciiWord('Müller')).toBe('muller');
    expect(asciiWord('Æsa Straße')).toBe('aesastrasse');
    expect(asciiWord("O'Brien")).toBe('obrien');
    expect(emailLocalPart('Łukasz', 'Nowak', 'x')).toBe('lukasz.nowak');
  });

  it('use a neutral local part for a name with no Latin spelling, never half of it', () => {
    expect(asciiWord('山田')).toBe('');
    expect(emailLocalPart('陽菜', '山田', 'contact1')).toBe('contact1');
    expect(emailLocalPart('陽菜', 'Tanaka', 'contact1')).toBe('tanaka');
  });
});

describe('seed 1', () => {
  it('gives every person an ASCII email made from their whole name', () => {
    const people = [
      ...rows<{ first_name: string; last_name: string; email: string }>('SELECT first_name, last_name, email FROM contacts'),
      ...rows<{ first_name: string; last_name: string; email: string }>('SELECT first_name, last_name, email FROM leads'),
    ];
    expect(people.length).toBeGreaterThan(100);
    for (const p of people) {
      expect(p.email, p.email).toMatch(/^[a-z0-9.]+@[a-z0-9.]+$/);
      expect(p.email.startsWith(`${asciiWord(p.first_name)}.${asciiWord(p.last_name)}`), `${p.first_name} ${p.last_name}: ${p.email}`).toBe(true);
    }
    const lukasz = people.filter((p) => p.first_name === 'Łukasz');
    expect(lukasz.length).toBeGreaterThan(0); // seed 1 has some: the case that was wrong
    for (const p of lukasz) expect(p.email.startsWith('lukasz.')).toBe(true);
  });

  it("places each client's street, city, country and phones in one place", () => {
    const clients = rows<{ id: string; phone: string; address: string }>('SELECT id, phone, address FROM clients').map((c) => {
      const address = JSON.parse(c.address) as { line1: string; city: string; country: string; postal_code: string };
      return { ...c, address_line1: address.line1, address_city: address.city, address_country: address.country, address_postal_code: address.postal_code };
    });
    expect(clients.length).toBe(40);
    const seen = new Set<string>();
    for (const client of clients) {
      const place = CITIES.find((c) => c.city === client.address_city)!;
      expect(place, client.address_city).toBeDefined();
      seen.add(place.country);
      expect(client.address_country).toBe(place.country);
      expect(client.address_postal_code).toBe(place.postal);
      expect(
        place.streets.some((street) => client.address_line1.includes(street)),
        `${client.address_line1} in ${place.city}`,
      ).toBe(true);
      const phones = [client.phone, ...rows<{ phone: string }>(`SELECT phone FROM contacts WHERE client_id = '${client.id}'`).map((c) => c.phone)];
      for (const phone of phones) {
        const [code, area] = phone.split(' ');
        expect(code, `${phone} in ${place.city}`).toBe(`+${place.callingCode}`);
        expect(place.areaCodes).toContain(area);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
  });
});
