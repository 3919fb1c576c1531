import Database from 'better-sqlite3';
import type { ApiClient } from './sandbox.js';

/**
 * A source CRM for the `crm sync copy` suites, made through the API of a sandbox started with
 * --no-seed: clients with contact persons (Polish, German and English, with addresses), leads of
 * every status (some converted into a new client, some into an existing one), deals in every stage
 * and invoices in every state. Names come from lists that masking's own lists do not hold, and
 * every email and phone is unique, so that finding any of them in a target proves a leak.
 */
export const SOURCE_FIRST = [
  'Bożydar',
  'Zdzisława',
  'Wiesław',
  'Gertrud',
  'Hildegard',
  'Ottokar',
  'Radomir',
  'Jadwiga',
  'Mieczysław',
  'Waltraud',
  'Eberhard',
  'Kunigunde',
  'Przemysław',
  'Bolesława',
  'Siegfried',
  'Florentyna',
  'Leokadia',
  'Cuthbert',
];
export const SOURCE_LAST = [
  'Brzęczyszczykiewicz',
  'Grzegorzewski',
  'Szczepańska',
  'Przybyłowicz',
  'Oberhuber',
  'Lichtenfeld',
  'Wawrzyniak',
  'Kaczmarczyk',
  'Pfannenstiel',
  'Rosenkranz',
  'Zawadzka',
  'Chrząszcz',
  'Featherstonehaugh',
];
const CITIES: [string, string, string][] = [
  ['Gdynia', 'PL', '81-301'],
  ['Bydgoszcz', 'PL', '85-001'],
  ['Regensburg', 'DE', '93047'],
  ['Ipswich', 'GB', 'IP1 1AA'],
];
const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'unqualified'];

export interface SourceValues {
  names: Set<string>;
  emails: Set<string>;
  phones: Set<string>;
}

export interface SourceCounts {
  clients: number;
  contacts: number;
  leads: number;
  deals: number;
  invoices: number;
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

async function ok<T = any>(promise: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const res = await promise;
  if (res.status >= 300) throw new Error(`${res.status}: ${res.text.slice(0, 500)}`);
  return res.body;
}

export async function buildSource(api: ApiClient, size: { clients: number; leads: number; deals: number; invoices: number }): Promise<SourceValues> {
  const values: SourceValues = { names: new Set([...SOURCE_FIRST, ...SOURCE_LAST]), emails: new Set(), phones: new Set() };
  // The clients' custom fields, defined as a source with definitions has them: the copy defines them in the target first.
  for (const field of [
    { object: 'client', key: 'employees', label: 'Employees', type: 'number' },
    { object: 'client', key: 'note', label: 'Note', type: 'text' },
  ]) {
    const res = await api.post('/v1/fields', field);
    if (res.status !== 201) throw new Error(`POST /v1/fields: ${res.status} ${res.text}`);
  }
  let n = 0;
  const person = () => {
    n++;
    const first = SOURCE_FIRST[n % SOURCE_FIRST.length]!;
    const last = SOURCE_LAST[(n * 7) % SOURCE_LAST.length]!;
    const email = `${ascii(first)}.${ascii(last)}.${n}@zrodlo-firma.pl`;
    const phone = `+48 6${String(n).padStart(2, '0').slice(-2)} ${String(100000 + n).slice(-6)}`;
    values.emails.add(email);
    values.phones.add(phone);
    return { first_name: first, last_name: last, email, phone };
  };
  const bulk = async (resource: string, records: unknown[]) => {
    const ids: string[] = [];
    for (let i = 0; i < records.length; i += 500) {
      const body = await ok(api.post(`/v1/${resource}/bulk`, { mode: 'create', records: records.slice(i, i + 500) }));
      for (const r of body.results) {
        if (r.status !== 'created') throw new Error(JSON.stringify(r));
        ids.push(r.id);
      }
    }
    return ids;
  };

  const clients = await bulk(
    'clients',
    Array.from({ length: size.clients }, (_, i) => {
      const [city, country, postal] = CITIES[i % CITIES.length]!;
      const owner = person();
      const company = `${SOURCE_LAST[i % SOURCE_LAST.length]} ${['Sp. z o.o.', 'GmbH', 'Ltd'][i % 3]}`;
      values.names.add(company);
      return {
        name: i % 5 === 0 ? `${owner.first_name} ${owner.last_name}` : company,
        kind: i % 5 === 0 ? 'person' : 'company',
        email: owner.email,
        phone: owner.phone,
        website: `https://www.firma-${i}.pl`,
        address: { line1: `ul. Świętojańska ${i + 1}`, city, postal_code: postal, country },
        tags: i % 2 ? ['vip'] : [],
        custom_fields: { employees: i * 3, note: `Owner ${owner.first_name} ${owner.last_name}, call ${owner.phone}` },
        contacts: Array.from({ length: 1 + (i % 3) }, (_, c) => ({ ...person(), role: 'Prezes zarządu', is_primary: c === 0 })),
      };
    }),
  );
  const leads = await bulk(
    'leads',
    Array.from({ length: size.leads }, (_, i) => ({
      ...person(),
      company: i % 4 ? `${SOURCE_LAST[(i + 3) % SOURCE_LAST.length]} Sp. z o.o.` : null,
      title: 'Kierownik zakupów',
      source: 'web',
      status: LEAD_STATUSES[i % LEAD_STATUSES.length],
      notes: i % 3 ? null : `Spotkanie w Gdyni z ${SOURCE_FIRST[i % SOURCE_FIRST.length]}`,
      tags: ['import'],
    })),
  );
  // Every tenth lead converted: half into a new client (as the API makes it), half into an existing one.
  for (let i = 0; i < leads.length; i += 10) {
    await ok(api.post(`/v1/leads/${leads[i]}/convert`, (i / 10) % 2 ? { client_id: clients[i % clients.length] } : {}));
  }
  const deals = await bulk(
    'deals',
    Array.from({ length: size.deals }, (_, i) => ({
      title: `Umowa ${SOURCE_LAST[i % SOURCE_LAST.length]} ${i}`,
      value: 1000 + i * 10.5,
      currency: ['EUR', 'PLN', 'USD'][i % 3],
      stage: STAGES[i % STAGES.length],
      client_id: i % 10 === 9 ? null : clients[i % clients.length],
      lost_reason: STAGES[i % STAGES.length] === 'lost' ? `Wybrali ${SOURCE_LAST[i % SOURCE_LAST.length]}` : null,
      expected_close_date: '2027-03-01',
    })),
  );
  for (let i = 0; i < size.invoices; i++) {
    const state = ['draft', 'open', 'paid', 'void'][i % 4]!;
    const invoice = await ok(
      api.post('/v1/invoices', {
        client_id: clients[i % clients.length],
        deal_id: i % 2 ? deals[(i * 6 + 4) % deals.length] : null, // stage won for i*6+4 ≡ 4 (mod 6)
        currency: 'EUR',
        line_items: [{ description: `Wdrożenie dla ${SOURCE_LAST[i % SOURCE_LAST.length]}`, quantity: 1 + (i % 3), unit_price: 450.5 }],
        due_date: '2027-01-31',
        send: state === 'open' || state === 'paid',
      }),
    );
    if (state === 'paid') await ok(api.post(`/v1/invoices/${invoice.id}/pay`));
    if (state === 'void') await ok(api.post(`/v1/invoices/${invoice.id}/void`));
  }
  return values;
}

export function countsIn(db: string): SourceCounts {
  const conn = new Database(db, { readonly: true });
  try {
    const count = (table: string) => conn.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    return { clients: count('clients'), contacts: count('contacts'), leads: count('leads'), deals: count('deals'), invoices: count('invoices') };
  } finally {
    conn.close();
  }
}

/** Every text a sandbox's database holds — records, events, request-log bodies, mailbox — as one string per row. */
export function everyText(db: string): string[] {
  const conn = new Database(db, { readonly: true });
  try {
    const tables = conn
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%search%' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    return tables.flatMap((t) =>
      (conn.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((row) =>
        Object.values(row)
          .filter((v) => typeof v === 'string')
          .join('\u0001'),
      ),
    );
  } finally {
    conn.close();
  }
}
