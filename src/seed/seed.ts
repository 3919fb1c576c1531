import { IdGenerator } from '../domain/ids.js';
import type { Currency } from '../domain/money.js';
import { STAGES } from '../domain/pipeline.js';
import { LEAD_SOURCES, LEAD_STATUSES } from '../schemas/lead.js';
import { createClient } from '../services/clients.js';
import type { Ctx } from '../services/context.js';
import { inTransaction } from '../services/transactions.js';
import { createDeal } from '../services/deals.js';
import { createInvoice, payInvoice, voidInvoice } from '../services/invoices.js';
import { createLead } from '../services/leads.js';
import { defineSeedFields, LIFECYCLE_OF_STATUS, PRODUCT_LINES } from './fields.js';
import { SeededRandom } from './random.js';
import * as V from './seed-data.js';
import { asciiWord, emailLocalPart } from './ascii.js';

/** Where the seeded history starts: fixed, so the same seed gives the same times and ids. */
const SEED_EPOCH = Date.parse('2026-01-05T08:00:00.000Z');

export interface SeedCounts {
  clients: number;
  leads: number;
  deals: number;
  invoices: number;
}

const DEFAULT_COUNTS: SeedCounts = { clients: 40, leads: 120, deals: 90, invoices: 32 };

/**
 * Fills an empty sandbox with realistic data through the same services the API uses (so every
 * record is valid and has its events). A private clock and id generator, both driven by the
 * seed, make the run repeatable: same seed, same records, same ids.
 */
export function seed(base: Ctx, seedValue: number, counts: SeedCounts = DEFAULT_COUNTS): SeedCounts {
  const rnd = new SeededRandom(seedValue);
  let time = SEED_EPOCH;
  const clock = () => time;
  const ctx: Ctx = { ...base, clock, ids: new IdGenerator(clock, () => rnd.bits80()) };
  const tick = () => (time += rnd.int(5, 90) * 60_000);
  const name = () => [rnd.pick(V.FIRST_NAMES), rnd.pick(V.LAST_NAMES)] as const;
  const slug = asciiWord;
  // Phone numbers of a place: its country and area code, then the number. Each takes three draws,
  // as the numbers did before they matched the place, so that a seed keeps its records' ids.
  const phone = (place: V.Locale, area: string) => `+${place.callingCode} ${area} ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`;
  const tags = () => (rnd.chance(0.4) ? [rnd.pick(V.TAGS)] : []);

  return inTransaction(base, () => {
    // The fields its records hold values of, first (values are checked against them), with the
    // account's own ids and clock: the seeded generator's draws stay the records'.
    defineSeedFields(base);
    const clients = [];
    for (let i = 0; i < counts.clients; i++) {
      tick();
      const company = `${rnd.pick(V.COMPANY_WORDS)} ${rnd.pick(V.INDUSTRIES)} ${rnd.pick(V.COMPANY_SUFFIXES)}`;
      const domain = `${slug(company.split(' ')[0]!)}${slug(company.split(' ')[1]!)}.example`;
      const place = rnd.pick(V.CITIES);
      const contacts = Array.from({ length: rnd.int(1, 3) }, (_, c) => {
        const [first, last] = name();
        return {
          first_name: first,
          last_name: last,
          email: `${emailLocalPart(first, last, `contact${c + 1}`)}@${domain}`,
          phone: phone(place, rnd.pick(place.areaCodes)),
          role: rnd.pick(V.ROLES),
          is_primary: c === 0,
        };
      });
      clients.push(
        createClient(ctx, {
          name: company,
          kind: 'company',
          email: `hello@${domain}`,
          phone: phone(place, rnd.pick(place.areaCodes)),
          website: `https://www.${domain}`,
          address: { line1: place.line1(rnd.pick(place.streets), rnd.int(1, 120)), city: place.city, postal_code: place.postal, country: place.country },
          external_id: `seed-client-${i + 1}`,
          tags: tags(),
          custom_fields: { employees: rnd.int(5, 5000), industry: company.split(' ')[1]! },
          contacts,
        }),
      );
    }

    for (let i = 0; i < counts.leads; i++) {
      tick();
      const [first, last] = name();
      const company = rnd.chance(0.8) ? `${rnd.pick(V.COMPANY_WORDS)} ${rnd.pick(V.COMPANY_SUFFIXES)}` : null;
      const lead = {
        first_name: first,
        last_name: last,
        email: `${emailLocalPart(first, last, 'lead')}${i}@${company ? slug(company.split(' ')[0]!) : 'mail'}.example`,
        phone: rnd.chance(0.6) ? ((place) => phone(place, place.areaCodes[0]!))(rnd.pick(V.CITIES)) : null,
        company,
        title: rnd.chance(0.7) ? rnd.pick(V.ROLES) : null,
        source: rnd.pick(LEAD_SOURCES),
        status: rnd.pick(LEAD_STATUSES.filter((s) => s !== 'converted')),
        notes: rnd.chance(0.3) ? `Met at ${rnd.pick(V.CITIES).city}; follow up "soon".` : null,
        external_id: `seed-lead-${i + 1}`,
        tags: tags(),
      };
      // From the status, not drawn: a new draw would change every later record of the seed.
      createLead(ctx, { ...lead, custom_fields: { lifecycle_stage: LIFECYCLE_OF_STATUS[lead.status]! } });
    }

    const deals = [];
    for (let i = 0; i < counts.deals; i++) {
      tick();
      const client = rnd.pick(clients);
      const currency = rnd.pick(V.CURRENCY_MIX);
      const stage = STAGES[i % STAGES.length]!; // every stage is represented
      const value = currency === 'JPY' ? rnd.int(100, 5000) * 1000 : rnd.int(500, 250_000) + (rnd.chance(0.3) ? 0.5 : 0);
      const close = new Date(time + rnd.int(7, 120) * 86_400_000).toISOString().slice(0, 10);
      deals.push(
        createDeal(ctx, {
          title: `${client.name.split(' ')[0]} ${rnd.pick(V.DEAL_THINGS)}`,
          value,
          currency,
          stage,
          client_id: client.id,
          expected_close_date: close,
          lost_reason: stage === 'lost' ? rnd.pick(['Price', 'Went with a competitor', 'No budget', 'Timing']) : null,
          external_id: `seed-deal-${i + 1}`,
          tags: tags(),
          // By position, not drawn (see the leads): every third deal has two product lines.
          custom_fields: { product_line: i % 3 === 0 ? [PRODUCT_LINES[i % 4]!, PRODUCT_LINES[(i + 1) % 4]!] : [PRODUCT_LINES[i % 4]!] },
        }),
      );
    }

    const wonDeals = deals.filter((d) => d.stage === 'won');
    for (let i = 0; i < counts.invoices; i++) {
      tick();
      const deal = wonDeals.length ? wonDeals[i % wonDeals.length]! : undefined;
      const clientId = deal?.client_id ?? rnd.pick(clients).id;
      const currency = (deal?.currency ?? 'EUR') as Currency;
      const items = Array.from({ length: rnd.int(1, 4) }, () => {
        const [description, price] = rnd.pick(V.LINE_ITEMS);
        return { description, quantity: rnd.int(1, 10), unit_price: currency === 'JPY' ? Math.round(price * 150) : price };
      });
      const state = ['draft', 'open', 'paid', 'void'][i % 4];
      const invoice = createInvoice(ctx, {
        client_id: clientId,
        deal_id: deal?.id ?? null,
        currency,
        line_items: items,
        due_date: new Date(time + 30 * 86_400_000).toISOString().slice(0, 10),
        send: state !== 'draft',
      });
      tick();
      if (state === 'paid') payInvoice(ctx, invoice.id);
      if (state === 'void') voidInvoice(ctx, invoice.id);
    }
    return counts;
  });
}
