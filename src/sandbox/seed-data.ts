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
export const CITIES: [city: string, country: string, postal: string][] = [
  ['Berlin', 'DE', '10115'], ['München', 'DE', '80331'], ['Paris', 'FR', '75002'], ['Lyon', 'FR', '69002'],
  ['Amsterdam', 'NL', '1012'], ['Milano', 'IT', '20121'], ['Madrid', 'ES', '28013'], ['Warszawa', 'PL', '00-001'],
  ['London', 'GB', 'EC1A 1BB'], ['Dublin', 'IE', 'D02'], ['København', 'DK', '1050'], ['Helsinki', 'FI', '00100'],
  ['New York', 'US', '10001'], ['Toronto', 'CA', 'M5H 2N2'], ['Tokyo', 'JP', '100-0001'],
];
export const STREETS = ['Hauptstraße', 'Rue de la Paix', 'Keizersgracht', 'Via Roma', 'Calle Mayor', 'Main Street', 'High Street'];
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
