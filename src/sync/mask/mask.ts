import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import * as L from './locales.js';
import type { Locale } from './locales.js';

/**
 * Deterministic fakes for `crm sync copy` (docs/sync.md, "Copy"): a value of a kind (a first name,
 * an email, a phone, a street…) is replaced by a plausible value of the same kind and locale,
 * chosen by HMAC-SHA256(key, kind ‖ value). So the same input gives the same fake everywhere — a
 * lead and a contact person with one email stay linked, a rerun writes the same values — and
 * without the key nobody can tell which input a fake came from, nor go back (no table is kept).
 * Nothing of the input is carried over but its shape: its locale, its null-ness, a phone's
 * country code and separators, an email's validity, a company's legal form.
 */
const FIELD_KINDS = [
  'first_name',
  'last_name',
  'full_name',
  'company',
  'email',
  'phone',
  'street',
  'address_line2',
  'city',
  'postal_code',
  'text',
  'job_title',
  'deal_title',
  'product',
  'website',
  'free',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export class Faker {
  /**
   * A KeyObject, not the bytes: Node 24's createHmac checks a Buffer key against its CryptoKey type
   * by catching an exception, ~35 µs an HMAC against ~6 µs with a KeyObject (timed alone): it was
   * 46 % of a copy's CPU (the benchmark machine, 20,000 records).
   */
  private readonly key: KeyObject;

  constructor(key: Buffer) {
    this.key = createSecretKey(key);
  }

  /** The HMAC of a value, as bytes to pick with; the kind separates the spaces (a name and a city never collide). */
  digest(kind: string, value: string): Buffer {
    return createHmac('sha256', this.key).update(kind).update('\0').update(value.normalize('NFC')).digest();
  }

  /** `hash` rule: 16 hex digits of the HMAC, shaped where the field needs a shape (an email, a phone). */
  hash(kind: FieldKind, value: string): string {
    const hex = this.digest(`hash:${kind}`, value).toString('hex').slice(0, 16);
    if (kind === 'email') return `${hex}@example.com`;
    if (kind === 'phone') return this.phone(value, 'hash');
    if (kind === 'website') return `https://${hex}.example`;
    return hex;
  }

  fake(kind: FieldKind, input: string, context: { country?: string | null } = {}): string {
    // NFC: "é" typed as one character or as e and a combining accent is one name, one fake.
    const value = input.normalize('NFC');
    switch (kind) {
      case 'first_name':
        return this.firstName(value);
      case 'last_name':
        return this.lastName(value);
      case 'full_name':
        return this.fullName(value);
      case 'company':
        return this.company(value);
      case 'email':
        return this.email(value);
      case 'phone':
        return this.phone(value);
      case 'street':
        return this.street(value, context.country);
      case 'address_line2':
        return this.addressLine2(value, context.country);
      case 'city':
        return this.city(value, context.country);
      case 'postal_code':
        return this.shaped('postal_code', value);
      case 'text':
        return this.text(value);
      case 'job_title':
        return pick(L.JOB_TITLES, this.digest(kind, value.trim().toLowerCase()));
      case 'deal_title':
        return this.dealTitle(value);
      case 'product':
        return pick(L.PRODUCT_LINES, this.digest(kind, value.trim().toLowerCase()));
      case 'website':
        return this.website(value);
      case 'free':
        return this.free(value);
    }
  }

  firstName(value: string): string {
    const name = value.trim();
    const locale = nameLocale(name);
    const d = this.digest('first_name', name.toLowerCase());
    const set = L.NAMES[locale];
    const female = isFemaleFirstName(name, locale);
    return sameCase(value, pickOther(female ? set.female : set.male, d, name));
  }

  lastName(value: string): string {
    const name = value.trim();
    const locale = nameLocale(name);
    // Polish and Czech last names have a female form: Kowalska stays a -ska, Nováková an -ová.
    const form = isFemaleLastName(name, locale) ? (last: string) => feminine(last, locale) : (last: string) => last;
    return sameCase(value, pickOther(L.NAMES[locale].last, this.digest('last_name', name.toLowerCase()), name, form));
  }

  /** A person's name as one string: each word as a first name but the last, so "Anna Nowak" masks as the lead's first and last name do. */
  fullName(value: string): string {
    const words = value.trim().split(/\s+/);
    if (words.length === 1) return this.lastName(words[0]!);
    return [...words.slice(0, -1).map((w) => this.firstName(w)), this.lastName(words.at(-1)!)].join(' ');
  }

  company(value: string): string {
    const name = value.trim();
    const form = L.LEGAL_FORMS.find(([f]) => name.endsWith(` ${f}`) || name === f);
    const locale = form?.[1] ?? textLocale(name) ?? 'en';
    const d = this.digest('company', name.toLowerCase());
    const word = pick(L.COMPANY_WORDS[locale], d);
    const second = pick(['Systems', 'Solutions', 'Trading', 'Logistics', 'Software', 'Partners', 'Foods', 'Energy', 'Media', 'Health'], d, 4);
    return form ? `${word} ${second} ${form[0]}` : `${word} ${second}`;
  }

  /** An address of the same shape on a reserved domain (RFC 2606): never one that can receive mail. */
  email(value: string): string {
    const d = this.digest('email', value.trim().toLowerCase());
    const first = ascii(pick(L.NAMES.en.female.concat(L.NAMES.en.male), d, 0));
    const last = ascii(pick(L.NAMES.en.last, d, 2));
    const tag = d.subarray(4, 8).toString('hex'); // 2^32 tags per name pair: two people do not end up sharing an address
    return `${first}.${last}.${tag}@${pick(L.EMAIL_DOMAINS, d, 8)}`.toLowerCase();
  }

  /**
   * Every digit replaced but the country code (+48, 0048) and a national number's leading 0
   * (a trunk prefix); spaces, dashes, dots, brackets and the length kept.
   */
  phone(value: string, salt = 'phone'): string {
    const d = this.digest(salt, value.replace(/[^\d+]/g, ''));
    const prefix = /^\s*(\+|00)\s*(\d+)/.exec(value);
    let keep = 0;
    if (prefix) keep = prefix[0].length - prefix[2]!.length + countryCodeLength(prefix[2]!);
    else keep = /^\s*0*/.exec(value)![0].length;
    let i = 0;
    let out = value.slice(0, keep);
    for (const char of value.slice(keep)) out += /\d/.test(char) ? String(d[i++ % d.length]! % 10) : char;
    return out;
  }

  street(value: string, country?: string | null): string {
    const locale = countryLocale(country) ?? textLocale(value) ?? 'en';
    const d = this.digest('street', value.trim().toLowerCase());
    const street = pick(L.STREETS[locale], d);
    if (!/\d/.test(value)) return street;
    const number = 1 + (d.readUInt16BE(4) % 199);
    return L.NUMBER_FIRST.has(locale) ? `${number} ${street}` : `${street} ${number}`;
  }

  addressLine2(value: string, country?: string | null): string {
    const locale = countryLocale(country) ?? textLocale(value) ?? 'en';
    const d = this.digest('address_line2', value.trim().toLowerCase());
    return `${L.UNIT_WORDS[locale]} ${1 + (d.readUInt16BE(0) % 40)}`;
  }

  city(value: string, country?: string | null): string {
    const locale = countryLocale(country) ?? textLocale(value) ?? 'en';
    return pickOther(L.CITIES[locale], this.digest('city', value.trim().toLowerCase()), value.trim());
  }

  /** Letters for letters and digits for digits, the rest kept: a postal code keeps its format (00-950, EC1A 1BB). */
  shaped(kind: string, value: string): string {
    const d = this.digest(kind, value);
    let i = 0;
    let out = '';
    for (const char of value) {
      const b = d[i++ % d.length]!;
      if (/\d/.test(char)) out += String(b % 10);
      else if (/[A-Z]/.test(char)) out += String.fromCharCode(65 + (b % 26));
      else if (/[a-z]/.test(char)) out += String.fromCharCode(97 + (b % 26));
      else out += char;
    }
    return out;
  }

  /** Neutral sentences, about as long as the input (so a layout sees realistic lengths). */
  text(value: string): string {
    if (value.trim() === '') return value;
    const d = this.digest('text', value);
    const parts: string[] = [];
    let length = 0;
    // Never longer than the input once it has one sentence: a field's length limit still holds.
    for (let i = 0; i < 400; i++) {
      const sentence = pick(L.SENTENCES, d, i % 31);
      if (parts.length && length + sentence.length > value.length) break;
      parts.push(sentence);
      length += sentence.length + 1;
    }
    return parts.join(' ');
  }

  dealTitle(value: string): string {
    const d = this.digest('deal_title', value.trim().toLowerCase());
    return `${pick(L.COMPANY_WORDS.en, d)} ${pick(L.DEAL_THINGS, d, 2)}`;
  }

  website(value: string): string {
    const d = this.digest('website', value.trim().toLowerCase().replace(/\/+$/, ''));
    const scheme = /^(https?:\/\/)/i.exec(value.trim())?.[1] ?? '';
    const www = /^(https?:\/\/)?www\./i.test(value.trim()) ? 'www.' : '';
    return `${scheme}${www}${pick(L.WEBSITE_WORDS, d)}-${d.subarray(2, 4).toString('hex')}.example`;
  }

  /** A free-text custom field: an email, phone or web address stays one; anything else becomes text. */
  free(value: string): string {
    const v = value.trim();
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return this.email(v);
    if (/^\+?[\d\s().\/-]{6,}$/.test(v) && /\d{3}/.test(v.replace(/\D/g, ''))) return this.phone(value);
    if (/^(https?:\/\/|www\.)\S+$/i.test(v)) return this.website(v);
    return this.text(value);
  }
}

/**
 * An entry of a list (after `form`) that is not the input itself: a fake must never be the value
 * it replaces, or masking "Anna" could write "Anna".
 */
function pickOther(list: readonly string[], digest: Buffer, input: string, form: (s: string) => string = (s) => s): string {
  const start = digest.readUInt16BE(0) % list.length;
  for (let i = 0; i < list.length; i++) {
    const candidate = form(list[(start + i) % list.length]!);
    if (candidate.toLowerCase() !== input.toLowerCase()) return candidate;
  }
  return form(list[start]!);
}

/** One entry of a list, by two bytes of the digest from `at`. */
function pick<T>(list: readonly T[], digest: Buffer, at = 0): T {
  return list[digest.readUInt16BE(at % (digest.length - 1)) % list.length]!;
}

const NAME_LOCALE = new Map<string, Locale>();
for (const locale of L.LOCALES) {
  for (const name of [...L.NAMES[locale].female, ...L.NAMES[locale].male, ...L.NAMES[locale].last]) {
    if (!NAME_LOCALE.has(name.toLowerCase())) NAME_LOCALE.set(name.toLowerCase(), locale);
  }
}

/** The locale of a name: a name the lists know, else its letters and endings, else English. */
export function nameLocale(name: string): Locale {
  const known = NAME_LOCALE.get(name.toLowerCase());
  if (known) return known;
  if (/(ska|ski|cka|cki|dzka|dzki|wicz|czyk|[iy]ak)$/i.test(name) || /rz[aeiouyąę]|sz[aeiouyc]|cz[aeiouyk]/i.test(name)) return 'pl';
  if (/(ová|ný|ná|ský|ská)$/i.test(name)) return 'cs';
  return textLocale(name) ?? 'en';
}

/** Letters only one language writes; undefined when nothing gives it away. */
function textLocale(text: string): Locale | undefined {
  if (/[łśżźćńąę]|ul\.|sp\. z o\.o\./i.test(text)) return 'pl';
  if (/[ěščřůťď]/i.test(text)) return 'cs';
  if (/[ğşı]|İ/.test(text)) return 'tr';
  if (/[ßäöü]|stra(ß|ss)e/i.test(text)) return 'de';
  if (/[åæø]/i.test(text)) return 'nordic';
  if (/[ãõ]/i.test(text)) return 'pt';
  if (/[ñ¡¿]/i.test(text)) return 'es';
  if (/[çœèêëîôû]|\brue\b/i.test(text)) return 'fr';
  if (/[àìòù]|\bvia\b/i.test(text)) return 'it';
  return undefined;
}

function countryLocale(country: string | null | undefined): Locale | undefined {
  return country ? L.COUNTRY_LOCALE[country.toUpperCase()] : undefined;
}

function isFemaleFirstName(name: string, locale: Locale): boolean {
  const set = L.NAMES[locale];
  const lower = name.toLowerCase();
  if (set.female.some((n) => n.toLowerCase() === lower)) return true;
  if (set.male.some((n) => n.toLowerCase() === lower)) return false;
  // Where most female names end in -a (Slavic, Romance), that is the best guess; elsewhere, also.
  return /a$/i.test(name);
}

function isFemaleLastName(name: string, locale: Locale): boolean {
  if (locale === 'pl') return /(ska|cka|dzka)$/i.test(name);
  if (locale === 'cs') return /(ová|á)$/i.test(name);
  return false;
}

function feminine(last: string, locale: Locale): string {
  if (locale === 'pl') return last.replace(/ski$/, 'ska').replace(/cki$/, 'cka');
  if (locale === 'cs') return /ý$/.test(last) ? last.replace(/ý$/, 'á') : `${last.replace(/[aeo]$/, '')}ová`;
  return last;
}

/** NOWAK stays upper case, nowak lower case. */
function sameCase(original: string, fake: string): string {
  if (original.length > 1 && original === original.toUpperCase() && original !== original.toLowerCase()) return fake.toUpperCase();
  if (original === original.toLowerCase() && original !== original.toUpperCase()) return fake.toLowerCase();
  return fake;
}

/** A name as the local part of an address: no diacritics, no spaces. */
function ascii(name: string): string {
  return name.normalize('NFD').replace(/[^A-Za-z]/g, '');
}

/** E.164 country codes: 1 and 7 are one digit, these are two, the rest three. */
const TWO_DIGIT = new Set(
  '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(' '),
);
function countryCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  if (TWO_DIGIT.has(digits.slice(0, 2))) return Math.min(2, digits.length);
  return Math.min(3, digits.length);
}
