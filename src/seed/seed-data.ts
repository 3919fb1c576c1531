/** The vocabulary the seed draws from: plausible names, companies and deals. */
export const FIRST_NAMES = [
  'Anna', 'Ben', 'Chiara', 'David', 'Elif', 'Farid', 'Greta', 'Hiroshi', 'Ines', 'Jonas', 'Katarzyna', 'Liam',
  'Maya', 'Noah', 'Olga', 'Pedro', 'Quinn', 'Rosa', 'Sven', 'Tanvi', 'Uwe', 'Valentina', 'Wei', 'Yusuf', 'Zoë',
  'Amélie', 'Björn', 'Søren', 'Łukasz', "Siobhán",
];
export const LAST_NAMES = [
  'Müller', 'Schmidt', 'Rossi', 'García', 'Nowak', 'Dubois', 'Jensen', 'Kowalski', 'Silva', 'Tanaka', 'Nguyen',
  'Okafor', 'Patel', 'Smith', 'Johansson', 'Novák', 'Fischer', 'Yilmaz', 'Bianchi', 'Martin', "O'Brien", 'Kim',
];
export const COMPANY_WORDS = [
  'Acme', 'Nordwind', 'Bluefield', 'Kestrel', 'Alpenglow', 'Harbor', 'Lumen', 'Quarry', 'Sable', 'Tessellate',
  'Verdant', 'Wolfram', 'Zephyr', 'Cobalt', 'Meridian', 'Orchid', 'Pinecrest', 'Riverbend', 'Solstice', 'Tidewater',
];
export const COMPANY_SUFFIXES = ['GmbH', 'Ltd', 'Inc.', 'S.A.', 'AG', 'B.V.', 'Oy', 'SARL', '& Co.', 'Group'];
export const INDUSTRIES = ['Logistics', 'Software', 'Foods', 'Energy', 'Health', 'Robotics', 'Textiles', 'Media', 'Analytics'];
export const ROLES = ['CEO', 'CTO', 'Head of Sales', 'Procurement Manager', 'Operations Lead', 'Finance Director', 'Office Manager'];
/**
 * Where clients are: each city with its country, a postal code, streets of that city written the
 * way its addresses are (number before or after the street), and its phone numbers' country and
 * area codes, so that a record's address, city and phone belong to one place.
 */
export interface Locale {
  city: string;
  country: string;
  postal: string;
  streets: readonly string[];
  /** How a street address reads there. */
  line1: (street: string, n: number) => string;
  callingCode: string;
  areaCodes: readonly string[];
}
const numberAfter = (street: string, n: number) => `${street} ${n}`;
const numberBefore = (street: string, n: number) => `${n} ${street}`;
const numberComma = (street: string, n: number) => `${street}, ${n}`;
export const CITIES: readonly Locale[] = [
  { city: 'Berlin', country: 'DE', postal: '10115', streets: ['Friedrichstraße', 'Torstraße', 'Kastanienallee'], line1: numberAfter, callingCode: '49', areaCodes: ['30'] },
  { city: 'München', country: 'DE', postal: '80331', streets: ['Sendlinger Straße', 'Leopoldstraße', 'Maximilianstraße'], line1: numberAfter, callingCode: '49', areaCodes: ['89'] },
  { city: 'Paris', country: 'FR', postal: '75002', streets: ['Rue de la Paix', 'Rue Montorgueil', 'Boulevard Haussmann'], line1: numberBefore, callingCode: '33', areaCodes: ['1'] },
  { city: 'Lyon', country: 'FR', postal: '69002', streets: ['Rue de la République', 'Quai Saint-Antoine', 'Rue Mercière'], line1: numberBefore, callingCode: '33', areaCodes: ['4'] },
  { city: 'Amsterdam', country: 'NL', postal: '1012', streets: ['Keizersgracht', 'Herengracht', 'Damrak'], line1: numberAfter, callingCode: '31', areaCodes: ['20'] },
  { city: 'Milano', country: 'IT', postal: '20121', streets: ['Via Roma', 'Via Montenapoleone', 'Corso Buenos Aires'], line1: numberComma, callingCode: '39', areaCodes: ['02'] },
  { city: 'Madrid', country: 'ES', postal: '28013', streets: ['Calle Mayor', 'Gran Vía', 'Calle de Alcalá'], line1: numberComma, callingCode: '34', areaCodes: ['91'] },
  { city: 'Warszawa', country: 'PL', postal: '00-001', streets: ['ul. Marszałkowska', 'ul. Nowy Świat', 'ul. Chmielna'], line1: numberAfter, callingCode: '48', areaCodes: ['22'] },
  { city: 'London', country: 'GB', postal: 'EC1A 1BB', streets: ['High Street', 'Baker Street', 'Old Street'], line1: numberBefore, callingCode: '44', areaCodes: ['20'] },
  { city: 'Dublin', country: 'IE', postal: 'D02', streets: ['Grafton Street', "O'Connell Street", 'Dame Street'], line1: numberBefore, callingCode: '353', areaCodes: ['1'] },
  { city: 'København', country: 'DK', postal: '1050', streets: ['Strøget', 'Nyhavn', 'Vesterbrogade'], line1: numberAfter, callingCode: '45', areaCodes: ['3', '7'] },
  { city: 'Helsinki', country: 'FI', postal: '00100', streets: ['Mannerheimintie', 'Aleksanterinkatu', 'Esplanadi'], line1: numberAfter, callingCode: '358', areaCodes: ['9'] },
  { city: 'New York', country: 'US', postal: '10001', streets: ['Main Street', 'Broadway', 'Madison Avenue'], line1: numberBefore, callingCode: '1', areaCodes: ['212', '646'] },
  { city: 'Toronto', country: 'CA', postal: 'M5H 2N2', streets: ['King Street West', 'Queen Street', 'Bay Street'], line1: numberBefore, callingCode: '1', areaCodes: ['416', '647'] },
  { city: 'Tokyo', country: 'JP', postal: '100-0001', streets: ['Marunouchi', 'Ginza', 'Nihonbashi'], line1: (street, n) => `${street} 1-${n}`, callingCode: '81', areaCodes: ['3'] },
];
export const DEAL_THINGS = [
  'annual license', 'pilot project', 'support renewal', 'fleet rollout', 'data migration', 'onboarding package',
  'enterprise upgrade', 'consulting retainer', 'hardware refresh', 'training workshop',
];
export const LINE_ITEMS: [description: string, unitPrice: number][] = [
  ['Consulting day', 1200], ['Software license (seat/year)', 480], ['Onboarding workshop', 2500], ['Support plan (month)', 299.9],
  ['Custom integration', 7800], ['Travel expenses', 342.5], ['Hardware unit', 899.99],
];
export const TAGS = ['vip', 'priority', 'newsletter', 'partner', 'trade-fair-2026', 'inbound', 'q4'];
export const CURRENCY_MIX = ['EUR', 'EUR', 'EUR', 'USD', 'GBP', 'CHF', 'JPY'] as const;
