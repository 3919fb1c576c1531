import type { SyncResource } from '../columns.js';
import { SyncUsageError } from '../errors.js';
import { valueKey } from '../enum-values.js';
import type { CsvSource, SourceRow } from '../csv/source.js';

/**
 * `crm sync import --from hubspot|salesforce|pipedrive` (docs/sync.md#presets---from-hubspotsalesforcepipedrive): those products' own export
 * columns and values, mapped onto ours. Each column of a preset names our field and, where the
 * product has its own value set, how its values map onto ours. A column the preset does not know
 * is kept as custom.<column> (never dropped) and listed in a warning. Column names are matched
 * ignoring case and spacing; values ignoring case, spaces and underscores, so that HubSpot's
 * internal values (OPEN_DEAL) and its labels ("Open Deal") both work.
 */
const PRESETS = ['hubspot', 'salesforce', 'pipedrive'] as const;
export type Preset = (typeof PRESETS)[number];

interface Column {
  field: string;
  values?: Record<string, string>;
}
interface PresetSpec {
  /** Their column → ours. Several names may lead to one field (report label and API name). */
  columns: Record<string, Column>;
  /** Columns every export of this kind has: missing ones mean the file is another product's. */
  required: string[];
  /**
   * Columns the product also writes once per kind of value, `<column> - <kind>` (Pipedrive's
   * `Person - Email - Work`, `Person - Phone - Mobile`): the first such column fills the field.
   */
  typed?: string[];
}

const HUBSPOT_LEAD_STATUS = {
  new: 'new',
  open: 'new',
  inprogress: 'contacted',
  attemptedtocontact: 'contacted',
  connected: 'contacted',
  opendeal: 'qualified',
  unqualified: 'unqualified',
  badtiming: 'unqualified',
};
const SALESFORCE_STATUS = {
  opennotcontacted: 'new',
  workingcontacted: 'contacted',
  closedconverted: 'converted',
  closednotconverted: 'unqualified',
};
const SALESFORCE_SOURCE = { web: 'web', phoneinquiry: 'cold_call', partnerreferral: 'partner', purchasedlist: 'other', other: 'other' };

const f = (field: string, values?: Record<string, string>): Column => (values ? { field, values } : { field });

const SPECS: Record<Preset, Record<SyncResource, PresetSpec>> = {
  hubspot: {
    leads: {
      columns: {
        'record id': f('external_id'),
        'first name': f('first_name'),
        'last name': f('last_name'),
        email: f('email'),
        'phone number': f('phone'),
        'company name': f('company'),
        'job title': f('title'),
        'lead status': f('status', HUBSPOT_LEAD_STATUS),
      },
      required: ['record id', 'email'],
    },
    clients: {
      columns: {
        'record id': f('external_id'),
        'company name': f('name'),
        'company domain name': f('website'),
        'phone number': f('phone'),
        'street address': f('address.line1'),
        city: f('address.city'),
        'state/region': f('address.region'),
        'postal code': f('address.postal_code'),
        'associated contact first name': f('contact.first_name'),
        'associated contact last name': f('contact.last_name'),
        'associated contact email': f('contact.email'),
      },
      required: ['record id', 'company name'],
    },
  },
  salesforce: {
    leads: {
      columns: {
        'lead id': f('external_id'),
        id: f('external_id'),
        'first name': f('first_name'),
        firstname: f('first_name'),
        'last name': f('last_name'),
        lastname: f('last_name'),
        email: f('email'),
        phone: f('phone'),
        company: f('company'),
        'company / account': f('company'),
        title: f('title'),
        leadsource: f('source', SALESFORCE_SOURCE),
        'lead source': f('source', SALESFORCE_SOURCE),
        status: f('status', SALESFORCE_STATUS),
        'lead status': f('status', SALESFORCE_STATUS),
      },
      required: ['last name|lastname', 'company|company / account', 'status|lead status'],
    },
    clients: {
      columns: {
        'account id': f('external_id'),
        'account name': f('name'),
        website: f('website'),
        phone: f('phone'),
        'billing street': f('address.line1'),
        'billing city': f('address.city'),
        'billing state/province': f('address.region'),
        'billing zip/postal code': f('address.postal_code'),
        'first name': f('contact.first_name'),
        'last name': f('contact.last_name'),
        email: f('contact.email'),
        title: f('contact.role'),
      },
      required: ['account id', 'account name'],
    },
  },
  pipedrive: {
    leads: {
      columns: {
        'person - id': f('external_id'),
        'person - first name': f('first_name'),
        'person - last name': f('last_name'),
        'person - email': f('email'),
        'person - phone': f('phone'),
        'organization - name': f('company'),
      },
      required: ['person - id', 'person - email'],
      typed: ['person - email', 'person - phone'],
    },
    clients: {
      columns: {
        'organization - id': f('external_id'),
        'organization - name': f('name'),
        'organization - address': f('address.line1'),
        'person - first name': f('contact.first_name'),
        'person - last name': f('contact.last_name'),
        'person - email': f('contact.email'),
        'person - phone': f('contact.phone'),
      },
      required: ['organization - id', 'organization - name'],
      typed: ['person - email', 'person - phone'],
    },
  },
};

const columnKey = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

/** A column's key as the preset knows it: itself, or the column it is a kind of (`person - email - work` is `person - email`). */
function knownKey(spec: PresetSpec, key: string): string | undefined {
  if (spec.columns[key]) return key;
  const kind = / - [^-]+$/.exec(key);
  const base = kind ? key.slice(0, kind.index) : undefined;
  return base && spec.typed?.includes(base) ? base : undefined;
}

/**
 * The presets that know some of these columns (a file's columns that match nothing of ours), the
 * best first: which --from the file looks like. Two known columns at least, so that one shared
 * name (Email) is no sign.
 */
export function presetsKnowing(resource: SyncResource, columns: string[]): { preset: Preset; known: string[] }[] {
  return PRESETS.map((preset) => ({ preset, known: columns.filter((c) => knownKey(SPECS[preset][resource], columnKey(c)) !== undefined) }))
    .filter((p) => p.known.length >= 2)
    .sort((a, b) => b.known.length - a.known.length);
}
/**
 * The source as our columns: renamed headers, mapped values. Returns the columns kept as custom
 * fields, for the warning. A value outside the product's value set stays as it is, so the
 * server's check names it.
 */
export function applyPreset(preset: Preset, resource: SyncResource, source: CsvSource, mapped: Iterable<string> = []): { source: CsvSource; custom: string[] } {
  const byMap = new Set([...mapped].map(columnKey)); // --map wins over the preset for the columns it names
  const spec = SPECS[preset][resource];
  const have = new Set(source.header.map((name) => knownKey(spec, columnKey(name)) ?? columnKey(name)));
  const missing = spec.required.filter((names) => !names.split('|').some((n) => have.has(n)));
  if (missing.length) {
    throw new SyncUsageError(
      `This is not a ${preset} ${resource} export: it lacks the column(s) ${missing.map((m) => `"${m.split('|')[0]}"`).join(', ')}. ` +
        `Its columns: ${source.header.join(', ')}. Check --from, or map the columns with --map.`,
    );
  }
  const custom: string[] = [];
  const used = new Set<string>();
  const columns = source.header.map((name): Column => {
    if (byMap.has(columnKey(name))) return { field: name };
    const key = knownKey(spec, columnKey(name));
    const known = key === undefined ? undefined : spec.columns[key];
    // A field a second column also names (a report with both Id and Lead ID) is taken once.
    if (known && !used.has(known.field)) {
      used.add(known.field);
      return known;
    }
    custom.push(name);
    return { field: `custom.${name.trim()}` };
  });
  const convert = (row: SourceRow): SourceRow => ({
    ...row,
    values: row.values.map((value, i) => {
      const values = columns[i]?.values;
      return values && value !== '' ? (values[valueKey(value)] ?? value) : value;
    }),
  });
  return {
    custom,
    source: {
      ...source,
      header: columns.map((c) => c.field),
      rows: {
        async *[Symbol.asyncIterator]() {
          for await (const run of source.rows) yield run.map(convert);
        },
      },
    },
  };
}
