import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Faker, nameLocale } from '../../src/sync/mask/mask.js';
import { Masker, loadMaskKey, parseRules, readMaskOption } from '../../src/sync/mask/rules.js';
import { NAMES } from '../../src/sync/mask/locales.js';
import { tempDir } from '../helpers/sandbox.js';

const key1 = Buffer.alloc(32, 1);
const key2 = Buffer.alloc(32, 2);
const faker = new Faker(key1);
const dir = tempDir('crm-mask-');
afterAll(() => dir.remove());

describe('Faker: deterministic fakes of the same kind', () => {
  it('the same input and key give the same fake; another key another one', () => {
    for (const [kind, value] of [
      ['first_name', 'Katarzyna'],
      ['email', 'ada@lovelace.io'],
      ['phone', '+48 601 234 567'],
      ['company', 'Acme GmbH'],
      ['text', 'Met at the fair; call back'],
    ] as const) {
      expect(faker.fake(kind, value)).toBe(new Faker(Buffer.alloc(32, 1)).fake(kind, value));
      expect(faker.fake(kind, value)).not.toBe(value);
    }
    const other = new Faker(key2);
    const differs = ['Anna', 'Jonas', 'Greta', 'Piotr'].filter((n) => other.fake('first_name', n) !== faker.fake('first_name', n));
    expect(differs.length).toBeGreaterThan(0);
    expect(other.fake('email', 'ada@lovelace.io')).not.toBe(faker.fake('email', 'ada@lovelace.io'));
  });

  it('an email keeps a valid shape on a reserved domain, the same whatever its case', () => {
    const email = faker.fake('email', 'Ada.Lovelace@Analytical.co.uk');
    expect(z.email().safeParse(email).success).toBe(true);
    expect(email).toMatch(/@example\.(com|org|net)$/);
    expect(faker.fake('email', 'ada.lovelace@analytical.co.uk')).toBe(email);
    const many = new Set(Array.from({ length: 2000 }, (_, i) => faker.fake('email', `person${i}@corp.example`)));
    expect(many.size).toBe(2000); // two people never end up sharing an address
  });

  it('a phone keeps its country code, separators and length; every other digit changes', () => {
    for (const phone of ['+48 601 234 567', '+1 (415) 555-0132', '0049 30 1234567', '+44 20 7946 0958', '030 1234567']) {
      const fake = faker.fake('phone', phone);
      expect(fake.length).toBe(phone.length);
      expect(fake.replace(/\d/g, '#')).toBe(phone.replace(/\d/g, '#'));
      expect(fake).not.toBe(phone);
    }
    expect(faker.fake('phone', '+48 601 234 567').startsWith('+48 ')).toBe(true);
    expect(faker.fake('phone', '+1 (415) 555-0132').startsWith('+1 (')).toBe(true);
    expect(faker.fake('phone', '0049 30 1234567').startsWith('0049 ')).toBe(true);
    expect(faker.fake('phone', '030 1234567').startsWith('0')).toBe(true);
  });

  it('a name keeps its locale (and a Polish or Czech last name its female form)', () => {
    const inLocale = (locale: keyof typeof NAMES, name: string) =>
      [...NAMES[locale].female, ...NAMES[locale].male, ...NAMES[locale].last.flatMap((l) => [l, l.replace(/ski$/, 'ska').replace(/cki$/, 'cka')])].includes(
        name,
      );
    for (const first of ['Katarzyna', 'Łukasz', 'Bożena']) expect(inLocale('pl', faker.fake('first_name', first))).toBe(true);
    for (const last of ['Nowak', 'Wiśniewski', 'Brzęczyszczykiewicz', 'Wawrzyniak', 'Kaczmarczyk', 'Grzegorzewski'])
      expect(inLocale('pl', faker.fake('last_name', last))).toBe(true);
    expect(faker.fake('last_name', 'Kowalska')).toMatch(/(ska|cka|[^i])$/);
    expect(
      faker.fake('last_name', 'Zielińska').endsWith('ska') ||
        faker.fake('last_name', 'Zielińska').endsWith('cka') ||
        /[^ki]$/.test(faker.fake('last_name', 'Zielińska')),
    ).toBe(true);
    expect(nameLocale('Müller')).toBe('de');
    expect(inLocale('de', faker.fake('last_name', 'Müller'))).toBe(true);
    expect(inLocale('fr', faker.fake('first_name', 'Amélie'))).toBe(true);
    expect(inLocale('ja', faker.fake('last_name', 'Tanaka'))).toBe(true);
    expect(faker.fake('last_name', 'NOWAK')).toBe(faker.fake('last_name', 'Nowak').toUpperCase());
    expect(faker.fake('first_name', 'Amélie'.normalize('NFD'))).toBe(faker.fake('first_name', 'Amélie')); // one name however it is encoded
  });

  it('a fake is never the value it replaces, even a name its own lists hold', () => {
    for (const set of Object.values(NAMES)) {
      for (const name of [...set.female, ...set.male]) expect(faker.fake('first_name', name)).not.toBe(name);
      for (const name of set.last) expect(faker.fake('last_name', name)).not.toBe(name);
    }
    for (const key of [key1, key2]) expect(new Faker(key).fake('last_name', 'Kowalska')).not.toBe('Kowalska');
  });

  it('addresses follow the country; a company keeps its legal form; websites are on .example', () => {
    expect(faker.fake('street', 'ul. Marszałkowska 12', { country: 'PL' })).toMatch(/^(ul\.|al\.) .+ \d+$/);
    expect(faker.fake('street', 'Friedrichstraße 5', { country: 'DE' })).toMatch(/ \d+$/);
    expect(faker.fake('street', '10 Downing Street', { country: 'GB' })).toMatch(/^\d+ /);
    expect(faker.fake('city', 'Gdynia', { country: 'PL' })).toMatch(/^(Warszawa|Kraków|Gdańsk|Wrocław|Poznań|Łódź|Lublin|Toruń)$/);
    expect(faker.fake('postal_code', '00-950').replace(/\d/g, '#')).toBe('##-###');
    expect(faker.fake('postal_code', 'EC1A 1BB').replace(/[A-Z]/g, 'A').replace(/\d/g, '#')).toBe('AA#A #AA');
    expect(faker.fake('company', 'Drutex Sp. z o.o.')).toMatch(/ Sp\. z o\.o\.$/);
    expect(faker.fake('company', 'Siemens AG')).toMatch(/ AG$/);
    expect(faker.fake('website', 'https://www.siemens.de/')).toMatch(/^https:\/\/www\.[a-z]+-[0-9a-f]{4}\.example$/);
  });

  it('free text is rebuilt from neutral sentences, never longer than the input once it has one', () => {
    const note = 'Spoke to Jan Kowalski on +48 601 234 567 about the renewal of contract 4711 in Kraków.';
    const fake = faker.fake('text', note);
    expect(fake.length).toBeLessThanOrEqual(note.length);
    for (const word of ['Jan', 'Kowalski', '601', '4711', 'Kraków']) expect(fake).not.toContain(word);
    expect(faker.fake('free', 'someone@corp.io')).toMatch(/@example\.(com|org|net)$/);
  });
});

describe('Masker: rules per field', () => {
  const lead = () => ({
    first_name: 'Anna',
    last_name: 'Nowak',
    email: 'anna@nowak.pl',
    phone: '+48 601 234 567',
    company: 'Nowak Sp. z o.o.',
    title: 'CEO',
    notes: 'VIP, likes golf',
    status: 'qualified',
    source: 'web',
    tags: ['vip'],
    custom_fields: { score: 42, vat: 'PL1234567890', ok: true },
  });

  it('default: personal fields faked, statuses, tags and numbers kept; a lead and a contact with one email stay linked', () => {
    const masker = new Masker(key1, readMaskOption('default'));
    const out = masker.mask('leads', lead());
    expect(out.status).toBe('qualified');
    expect(out.source).toBe('web');
    expect(out.tags).toEqual(['vip']);
    expect((out.custom_fields as Record<string, unknown>).score).toBe(42);
    expect((out.custom_fields as Record<string, unknown>).ok).toBe(true);
    expect((out.custom_fields as Record<string, unknown>).vat).not.toBe('PL1234567890');
    for (const field of ['first_name', 'last_name', 'email', 'phone', 'company', 'notes'] as const) expect(out[field]).not.toBe(lead()[field]);
    const client = masker.mask('clients', {
      name: 'Anna Nowak',
      kind: 'person',
      email: 'ANNA@nowak.pl',
      contacts: [{ first_name: 'Anna', last_name: 'Nowak', email: 'anna@nowak.pl', is_primary: true }],
    });
    expect(client.email).toBe(out.email);
    expect((client.contacts as Record<string, unknown>[])[0]!.email).toBe(out.email);
    expect(client.name).toBe(`${out.first_name} ${out.last_name}`);
  });

  it('a rules file: keep, null, hash, constant, per field and for every custom field', () => {
    const file = join(dir.path, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify({
        'leads.company': 'keep',
        'leads.notes': 'null',
        'leads.email': 'hash',
        'leads.title': { constant: 'Buyer' },
        'leads.custom_fields.*': 'keep',
      }),
    );
    const out = new Masker(key1, readMaskOption(file)).mask('leads', lead());
    expect(out.company).toBe('Nowak Sp. z o.o.');
    expect(out.notes).toBeNull();
    expect(out.email).toMatch(/^[0-9a-f]{16}@example\.com$/);
    expect(out.title).toBe('Buyer');
    expect((out.custom_fields as Record<string, unknown>).vat).toBe('PL1234567890');
    expect(out.first_name).not.toBe('Anna'); // not named: still the default
  });

  it('a bad rules file is a usage error that says what is wrong', () => {
    expect(() => parseRules({ 'leads.shoe_size': 'keep' })).toThrow(/no field "shoe_size"/);
    expect(() => parseRules({ 'people.name': 'keep' })).toThrow(/resource\.field/);
    expect(() => parseRules({ 'leads.email': 'scramble' })).toThrow(/keep", "fake", "hash", "null"/);
    expect(() => parseRules({ 'leads.email': { constant: { a: 1 } } })).toThrow(/constant/);
    expect(() => parseRules([1])).toThrow(/object/);
    expect(() => readMaskOption(join(dir.path, 'missing.json'))).toThrow(/no such file/);
  });

  it('none leaves records as they are', () => {
    expect(new Masker(undefined, readMaskOption('none')).mask('leads', lead())).toEqual(lead());
  });
});

describe('the masking key', () => {
  it('is made once, 0600, and read back the same; a key others can read is refused', () => {
    const path = join(dir.path, 'keys', 'mask.key');
    const first = loadMaskKey(path);
    expect(first.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.key.length).toBe(32);
    const again = loadMaskKey(path);
    expect(again.created).toBe(false);
    expect(again.key.equals(first.key)).toBe(true);
    expect(readFileSync(path, 'utf8').trim()).toBe(first.key.toString('hex'));
    chmodSync(path, 0o644);
    expect(() => loadMaskKey(path)).toThrow(/chmod 600/);
  });
});
