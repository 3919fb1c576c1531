import { z } from 'zod';
import {
  Email,
  Phone,
  ShortText,
  listEnvelope,
  listQueryFields,
  listSortFields,
  recordFields,
  searchField,
  syncFields,
  syncFilterFields,
  CustomFieldValues,
} from './common.js';
import { lazySchema } from './lazy.js';

/**
 * ISO 3166-1 alpha-2: the 249 assigned codes, and XK (Kosovo), accepted as it is in practice. A
 * list rather than ICU's region names (what this checked before, less CLDR's own and reserved or
 * withdrawn codes: the same 250): Intl.DisplayNames took ~14 ms of every start to load its data,
 * and a Node built with small ICU would know none of them.
 */
const COUNTRIES: ReadonlySet<string> = new Set(
  [
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR',
    'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ',
    'EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW',
    'GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY',
    'KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV',
    'MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY',
    'QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG',
    'TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA',
    'ZM ZW',
  ]
    .join(' ')
    .split(' '),
);
const isCountry = (code: string) => COUNTRIES.has(code);

export const Address = lazySchema(() =>
  z
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
    .meta({ id: 'Address' }),
);

// The fields' schemas, made inside each schema that uses them when it is built (lazy.ts).
const contactFields = () => ({
  first_name: ShortText().nullable().optional(),
  last_name: ShortText().nullable().optional(),
  email: Email().nullable().optional(),
  phone: Phone().nullable().optional(),
  role: ShortText().nullable().optional(),
  is_primary: z.boolean().optional(),
});

export const ContactCreate = lazySchema(() =>
  z
    .strictObject(contactFields())
    .refine((c) => c.first_name || c.last_name || c.email, {
      message: 'A contact person needs at least one of first_name, last_name or email.',
      path: ['first_name'],
    })
    .meta({ id: 'ContactCreate' }),
);

export const ContactUpdate = lazySchema(() => z.strictObject(contactFields()).meta({ id: 'ContactUpdate' }));

export const Contact = lazySchema(() =>
  z
    .object({
      id: z.string(),
      client_id: z.string(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      role: z.string().nullable(),
      is_primary: z.boolean(),
      ...recordFields(),
    })
    .meta({ id: 'Contact' }),
);

const CLIENT_KINDS = ['company', 'person'] as const;

const clientFields = () => ({
  name: z.string().min(1).max(200),
  kind: z.enum(CLIENT_KINDS).optional(),
  email: Email().nullable().optional(),
  phone: Phone().nullable().optional(),
  website: z.string().max(2048).nullable().optional(),
  address: Address.unwrap().nullable().optional(),
  ...syncFields(),
});

export const ClientCreate = lazySchema(() =>
  z
    .strictObject({
      ...clientFields(),
      contacts: z.array(ContactCreate.unwrap()).max(50).optional().describe('Contact persons created with the client'),
    })
    .meta({
      id: 'ClientCreate',
      examples: [
        {
          name: 'Acme GmbH',
          kind: 'company',
          email: 'billing@acme.example',
          address: { city: 'Berlin', country: 'DE' },
          contacts: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@acme.example', is_primary: true }],
        },
      ],
    }),
);

export const ClientUpdate = lazySchema(() => {
  const fields = clientFields();
  return z
    .strictObject({ ...fields, name: fields.name.optional() })
    .meta({ id: 'ClientUpdate', description: 'Contact persons are changed through /v1/clients/{id}/contacts.' });
});

const addressOut = () =>
  z.object({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
  });

export const Client = lazySchema(() =>
  z
    .object({
      id: z.string(),
      external_id: z.string().nullable(),
      name: z.string(),
      kind: z.enum(CLIENT_KINDS),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      website: z.string().nullable(),
      address: addressOut(),
      tags: z.array(z.string()),
      custom_fields: CustomFieldValues(),
      contacts: z.array(Contact.unwrap()),
      ...recordFields(),
    })
    .meta({ id: 'Client' }),
);

export const ClientListQuery = lazySchema(() =>
  z.strictObject({
    ...listQueryFields(),
    ...listSortFields(['name'], 'name'),
    ...searchField("name, email, website and the contact persons' names and emails"),
    ...syncFilterFields(),
  }),
);

export const ClientList = lazySchema(() => listEnvelope(Client.unwrap()).meta({ id: 'ClientList' }));
export const ContactList = lazySchema(() => listEnvelope(Contact.unwrap()).meta({ id: 'ContactList' }));
export const ContactListQuery = lazySchema(() =>
  z.strictObject({
    limit: listQueryFields().limit,
    cursor: listQueryFields().cursor,
  }),
);

export type Client = z.infer<typeof Client>;
export type ClientCreate = z.infer<typeof ClientCreate>;
export type ClientUpdate = z.infer<typeof ClientUpdate>;
export type ClientListQuery = z.infer<typeof ClientListQuery>;
export type ClientSort = ClientListQuery['sort'];
export type Contact = z.infer<typeof Contact>;
export type ContactCreate = z.infer<typeof ContactCreate>;
export type ContactUpdate = z.infer<typeof ContactUpdate>;
export type Address = z.infer<ReturnType<typeof addressOut>>;
