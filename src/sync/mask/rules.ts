import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../../private-files.js';
import { SyncUsageError } from '../errors.js';
import type { FieldType } from '../../domain/custom-fields.js';
import { Faker, type FieldKind } from './mask.js';

/**
 * Which fields `crm sync copy` masks and how (`--mask default|FILE.json|none`). Each masked field
 * has a kind (mask.ts); a rules file says per field `keep`, `fake`, `hash`, `null` or
 * `{"constant": value}`, over the defaults:
 *
 *   { "leads.notes": "null", "deals.title": "keep", "clients.custom_fields.vat_id": "hash",
 *     "leads.custom_fields.*": "keep", "clients.website": { "constant": "https://example.com" } }
 *
 * By default every personal field is faked and free-text custom fields with it; amounts, stages,
 * statuses, dates, currencies, tags and countries are kept.
 */
export const COPY_RESOURCES = ['clients', 'leads', 'deals', 'invoices'] as const;
export type CopyResource = (typeof COPY_RESOURCES)[number];

export type Rule = 'keep' | 'fake' | 'hash' | 'null' | { constant: string | number | boolean | null };
type Record_ = Record<string, unknown>;

/** Fields faked by default, with their kind; `contacts.` and `line_items.` apply to each element. */
const MASKED: Record<CopyResource, Record<string, FieldKind | ((record: Record_) => FieldKind)>> = {
  clients: {
    name: (r) => (r.kind === 'person' ? 'full_name' : 'company'),
    email: 'email',
    phone: 'phone',
    website: 'website',
    'address.line1': 'street',
    'address.line2': 'address_line2',
    'address.city': 'city',
    'address.postal_code': 'postal_code',
    'contacts.first_name': 'first_name',
    'contacts.last_name': 'last_name',
    'contacts.email': 'email',
    'contacts.phone': 'phone',
    'contacts.role': 'job_title',
  },
  leads: { first_name: 'first_name', last_name: 'last_name', email: 'email', phone: 'phone', company: 'company', title: 'job_title', notes: 'text' },
  deals: { title: 'deal_title', lost_reason: 'text' },
  invoices: { recipient_email: 'email', 'line_items.description': 'product' },
};

/** Fields kept by default; a rule may still change them. */
const KEPT: Record<CopyResource, string[]> = {
  clients: ['kind', 'tags', 'address.region', 'address.country', 'contacts.is_primary'],
  leads: ['source', 'status', 'tags'],
  deals: ['value', 'currency', 'stage', 'win_probability', 'expected_close_date', 'tags'],
  invoices: ['currency', 'due_date', 'line_items.quantity', 'line_items.unit_price'],
};

export interface MaskSettings {
  mode: 'default' | 'file' | 'none';
  rules: Map<string, Rule>;
}

/** --mask default | none | FILE.json (its rules over the defaults). */
export function readMaskOption(option: string): MaskSettings {
  if (option === 'none') return { mode: 'none', rules: new Map() };
  if (option === 'default') return { mode: 'default', rules: new Map() };
  if (!existsSync(option)) throw new SyncUsageError(`--mask ${option}: no such file. Use default, none, or a rules file (docs/sync.md, "Masking rules").`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(option, 'utf8'));
  } catch (error) {
    throw new SyncUsageError(`--mask ${option} is not JSON: ${(error as Error).message}`);
  }
  return { mode: 'file', rules: parseRules(parsed, option) };
}

export function parseRules(parsed: unknown, where = 'the rules file'): Map<string, Rule> {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SyncUsageError(`${where}: expected an object of "resource.field": rule.`);
  const rules = new Map<string, Rule>();
  for (const [path, rule] of Object.entries(parsed)) {
    const [resource, ...rest] = path.split('.');
    const field = rest.join('.');
    if (!COPY_RESOURCES.includes(resource as CopyResource) || !field)
      throw new SyncUsageError(`${where}: "${path}" is not resource.field (resources: ${COPY_RESOURCES.join(', ')}).`);
    const known = [...Object.keys(MASKED[resource as CopyResource]), ...KEPT[resource as CopyResource]];
    if (!known.includes(field) && !/^custom_fields\.(\*|[^.]+)$/.test(field)) {
      throw new SyncUsageError(`${where}: ${resource} has no field "${field}" that masking knows (${known.join(', ')}, custom_fields.NAME, custom_fields.*).`);
    }
    const ok = typeof rule === 'string' ? ['keep', 'fake', 'hash', 'null'].includes(rule) : isConstant(rule);
    if (!ok) throw new SyncUsageError(`${where}: "${path}": the rule must be "keep", "fake", "hash", "null" or {"constant": value}.`);
    rules.set(path, rule as Rule);
  }
  return rules;
}

function isConstant(rule: unknown): boolean {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return false;
  const keys = Object.keys(rule);
  if (keys.length !== 1 || keys[0] !== 'constant') return false;
  const value = (rule as { constant: unknown }).constant;
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * How a custom field of each type is masked by default (docs/sync.md, "Masking"): text-like values
 * are faked as their kind (an email as an email), values chosen from a set or measured are kept:
 * a select's option, a number, a date say nothing of a person, and a fake of them would not be
 * one of the field's values.
 */
const CUSTOM_KIND: Partial<Record<FieldType, FieldKind>> = { text: 'free', long_text: 'free', email: 'email', url: 'website', phone: 'phone' };
const TEXT_MAX: Partial<Record<FieldType, number>> = { text: 1000, long_text: 65_535 };

/** Applies the rules to records about to be written. Pure: the same record and key, the same result. */
export class Masker {
  readonly active: boolean;
  /** The source's custom field types by resource and key (copy/fields.ts); a key without one is masked by its value's kind. */
  private fieldTypes = new Map<CopyResource, Map<string, FieldType>>();
  /** Names the key without revealing it (a journal refuses to resume with another key's fakes). */
  readonly keyId: string | null;
  private readonly faker: Faker | undefined;

  constructor(
    key: Buffer | undefined,
    private readonly settings: MaskSettings,
  ) {
    this.active = settings.mode !== 'none';
    this.faker = key ? new Faker(key) : undefined;
    this.keyId = key ? createHash('sha256').update('crm-mask-key-id\0').update(key).digest('hex').slice(0, 12) : null;
    if (this.active && !this.faker) throw new Error('Masking needs a key.');
  }

  mask(resource: CopyResource, record: Record_): Record_ {
    if (!this.active) return record;
    const country = (record.address as Record_ | null | undefined)?.country as string | null | undefined;
    const fields = new Set([...Object.keys(MASKED[resource]), ...KEPT[resource]]);
    for (const key of this.settings.rules.keys()) if (key.startsWith(`${resource}.`) && !key.includes('*')) fields.add(key.slice(resource.length + 1));
    for (const field of fields) {
      if (field.startsWith('custom_fields.')) continue; // below, with the record's own keys
      const kindOf = MASKED[resource][field];
      const kind = typeof kindOf === 'function' ? kindOf(record) : kindOf;
      const rule = this.ruleFor(resource, field, kind !== undefined);
      if (rule !== 'keep') update(record, field.split('.'), (value) => this.apply(rule, kind, value, country));
    }
    const custom = record.custom_fields as Record_ | undefined;
    if (custom) {
      const types = this.fieldTypes.get(resource);
      for (const name of Object.keys(custom)) {
        const type = types?.get(name);
        const byDefault = type && !CUSTOM_KIND[type] ? 'keep' : 'fake';
        const rule = this.settings.rules.get(`${resource}.custom_fields.${name}`) ?? this.settings.rules.get(`${resource}.custom_fields.*`) ?? byDefault;
        // Numbers and booleans say nothing about a person by default; a rule can still null or hash them.
        if (rule === 'fake' && typeof custom[name] !== 'string') continue;
        if (rule === 'keep') continue;
        const masked = this.apply(rule, (type && CUSTOM_KIND[type]) ?? 'free', custom[name], country);
        // A fake text is about as long as its value: cut to what the field takes.
        const max = type && TEXT_MAX[type];
        custom[name] = max && typeof masked === 'string' ? masked.slice(0, max) : masked;
      }
    }
    return record;
  }

  /** The types of the source's custom fields, so that each is masked by its type. */
  useFieldTypes(resource: CopyResource, types: Map<string, FieldType>): void {
    this.fieldTypes.set(resource, types);
  }

  private ruleFor(resource: CopyResource, field: string, maskedByDefault: boolean): Rule {
    return this.settings.rules.get(`${resource}.${field}`) ?? (maskedByDefault ? 'fake' : 'keep');
  }

  private apply(rule: Rule, kind: FieldKind | undefined, value: unknown, country: string | null | undefined): unknown {
    if (value === null || value === undefined) return value; // null stays null: a fake has the shape of what it replaces
    if (rule === 'null') return null;
    if (typeof rule === 'object') return rule.constant;
    if (typeof value === 'number') return rule === 'keep' ? value : this.fakeNumber(value, rule);
    if (typeof value !== 'string') return value;
    if (value === '') return value;
    if (rule === 'hash') return this.faker!.hash(kind ?? 'free', value);
    if (rule === 'fake') return this.faker!.fake(kind ?? 'free', value, { country });
    return value;
  }

  /** A number of the same magnitude and decimals (a rule asked to fake an amount). */
  private fakeNumber(value: number, salt: string): number {
    const d = this.faker!.digest(`number:${salt}`, String(value));
    const factor = 0.5 + d.readUInt32BE(0) / 0xffffffff; // 0.5×..1.5×
    const decimals = (String(value).split('.')[1] ?? '').length;
    return Number((value * factor).toFixed(decimals));
  }
}

/** Sets each value at a dotted path, through arrays (contacts.email is every contact's email). */
function update(target: unknown, path: string[], change: (value: unknown) => unknown): void {
  if (target === null || typeof target !== 'object') return;
  if (Array.isArray(target)) {
    for (const item of target) update(item, path, change);
    return;
  }
  const object = target as Record_;
  const [head, ...rest] = path;
  if (!(head! in object)) return;
  if (rest.length === 0) object[head!] = change(object[head!]);
  else update(object[head!], rest, change);
}

/**
 * The masking key: 32 random bytes, hex, made once (0600, its folder 0700) and only ever read
 * here: it is never sent anywhere, nor written into results. A key others can read is refused,
 * as ssh refuses such a private key: with it, fakes can be tested against guesses.
 */
export function loadMaskKey(path: string): { key: Buffer; created: boolean } {
  if (!existsSync(path)) {
    makePrivateDir(dirname(path));
    writePrivateFile(path, `${randomBytes(32).toString('hex')}\n`, 'wx');
    return { key: readKey(path), created: true };
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    throw new SyncUsageError(`${path} can be read by others; the masking key must be private: chmod 600 ${path}`);
  }
  return { key: readKey(path), created: false };
}

function readKey(path: string): Buffer {
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64,}$/i.test(text))
    throw new SyncUsageError(
      `${path} is not a masking key (64 or more hex digits). Delete it to have a new one made, or point --mask-key-file at the right file.`,
    );
  return Buffer.from(text, 'hex');
}
