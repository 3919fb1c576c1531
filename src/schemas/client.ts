import { z } from 'zod';
import { Email, Phone, ShortText, listEnvelope, listQueryFields, recordFields, syncFields, syncFilterFields } from './common.js';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
/**
 * Codes ICU names that are not assigned in ISO 3166-1: CLDR's own regions (EU, EZ, UN, QO, XA, XB),
 * reserved ones (AC, CP, DG, EA, IC, TA, UK) and withdrawn ones (AN, BU, CS, DD, YU, ZR, …).
 * XK (Kosovo) stays accepted, as it is in practice.
 */
const NOT_ISO_3166 = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ'.split(' '));
/** ISO 3166-1 alpha-2, checked against the ICU region list that ships with Node (once per code: an
 * ICU lookup per client was ~1 % of a clients import; there are 676 two-letter codes at most). */
const countries = new Map<string, boolean>();
function isCountry(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  let known = countries.get(code);
  if (known === undefined) countries.set(code, (known = !NOT_ISO_3166.has(code) && regionNames.of(code) !== code));
  return known;
}

export const Address = z
  .strictObject({
    line1: z.string().max(200).nullable().optional(),
    line2: z.string().max(200).nullable().optional(),
    city: z.string().max(100).nullable().optional(),
    region: z.string().max(100).nullable().optional(),
    postal_code: z.string().max(20).nullable().optional(),
    country: z
      .string()
      .max(100) // a bound for the document (OWASP API4); isCountry says what is wrong with a long one
      .refine(isCountry, { message: 'Expected an ISO 3166-1 alpha-2 country code such as DE or US.' })
      .nullable()
      .optional(),
  })
  .meta({ id: 'Address' });

const contactFields = {
  first_name: ShortText.nullable().optional(),
  last_name: ShortText.nullable().optional(),
  email: Email.nullable().optional(),
  phone: Phone.nullable().optional(),
  role: ShortText.nullable().optional(),
  is_primary: z.boolean().optional(),
};

export const ContactCreate = z
  .strictObject(contactFields)
  .refine((c) => c.first_name || c.last_name || c.email, {
    message: 'A contact person needs at least one of first_name, last_name or email.',
    path: ['first_name'],
  })
  .meta({ id: 'ContactCreate' });

export const ContactUpdate = z.strictObject(contactFields).meta({ id: 'ContactUpdate' });

export const Contact = z
  .object({
    id: z.string(),
    client_id: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    role: z.string().nullable(),
    is_primary: z.boolean(),
    ...recordFields,
  })
  .meta({ id: 'Contact' });

export const CLIENT_KINDS = ['company', 'person'] as const;

const clientFields = {
  name: z.string().min(1).max(200),
  kind: z.enum(CLIENT_KINDS).optional(),
  email: Email.nullable().optional(),
  phone: Phone.nullable().optional(),
  website: z.string().max(2048).nullable().optional(),
  address: Address.nullable().optional(),
  ...syncFields,
};

export const ClientCreate = z
  .strictObject({
    ...clientFields,
    contacts: z.array(ContactCreate).max(50).optional().describe('Contact persons created with the client'),
  })
  .meta({
    id: 'ClientCreate',
    examples: [{ name: 'Acme GmbH', kind: 'company', email: 'billing@acme.example', address: { city: 'Berlin', country: 'DE' }, contacts: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@acme.example', is_primary: true }] }],
  });

export const ClientUpdate = z
  .strictObject({ ...clientFields, name: clientFields.name.optional() })
  .meta({ id: 'ClientUpdate', description: 'Contact persons are changed through /v1/clients/{id}/contacts.' });

const AddressOut = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
});

export const Client = z
  .object({
    id: z.string(),
    external_id: z.string().nullable(),
    name: z.string(),
    kind: z.enum(CLIENT_KINDS),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    address: AddressOut,
    tags: z.array(z.string()),
    custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    contacts: z.array(Contact),
    ...recordFields,
  })
  .meta({ id: 'Client' });

export const ClientListQuery = z.strictObject({
  ...listQueryFields,
  ...syncFilterFields,
  q: z.string().min(1).max(200).optional().describe('Full-text search over name, email, website and contact persons'),
});

export const ClientList = listEnvelope(Client).meta({ id: 'ClientList' });
export const ContactList = listEnvelope(Contact).meta({ id: 'ContactList' });
export const ContactListQuery = z.strictObject({
  limit: listQueryFields.limit,
  cursor: listQueryFields.cursor,
});

export type Client = z.infer<typeof Client>;
export type ClientCreate = z.infer<typeof ClientCreate>;
export type ClientUpdate = z.infer<typeof ClientUpdate>;
export type ClientListQuery = z.infer<typeof ClientListQuery>;
export type Contact = z.infer<typeof Contact>;
export type ContactCreate = z.infer<typeof ContactCreate>;
export type ContactUpdate = z.infer<typeof ContactUpdate>;
export type Address = z.infer<typeof AddressOut>;
