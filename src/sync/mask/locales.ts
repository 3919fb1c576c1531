/**
 * What masking draws its fakes from, per locale: a Polish name is replaced by a Polish name, a
 * German street by a German street. Small lists on purpose: the fakes only need to look like the
 * data they stand for; the HMAC picks among them (mask.ts). Names are in their usual written form,
 * diacritics included, so that a detector of "real-looking data" sees what it would see in prod.
 */
export const LOCALES = ['pl', 'de', 'fr', 'it', 'es', 'nl', 'nordic', 'pt', 'tr', 'cs', 'ja', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

interface NameSet {
  female: string[];
  male: string[];
  /** Last names; for Polish and Czech, the male form (the female one is derived: -ski → -ska). */
  last: string[];
}

export const NAMES: Record<Locale, NameSet> = {
  pl: {
    female: ['Katarzyna', 'Agnieszka', 'Małgorzata', 'Joanna', 'Zofia', 'Aleksandra', 'Magdalena', 'Ewa', 'Barbara', 'Dorota'],
    male: ['Łukasz', 'Piotr', 'Krzysztof', 'Tomasz', 'Paweł', 'Michał', 'Marcin', 'Jakub', 'Grzegorz', 'Wojciech'],
    last: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Kozłowski', 'Mazur'],
  },
  de: {
    female: ['Anna', 'Greta', 'Sabine', 'Ursula', 'Katrin', 'Jana', 'Lena', 'Johanna', 'Birgit', 'Heike'],
    male: ['Jonas', 'Uwe', 'Jürgen', 'Stefan', 'Matthias', 'Klaus', 'Lukas', 'Tobias', 'Wolfgang', 'Dieter'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schäfer', 'Hoffmann', 'Krüger', 'Groß'],
  },
  fr: {
    female: ['Amélie', 'Camille', 'Léa', 'Chloé', 'Margaux', 'Inès', 'Céline', 'Hélène', 'Élodie', 'Manon'],
    male: ['Thomas', 'Julien', 'Mathieu', 'Nicolas', 'François', 'Benoît', 'Jérôme', 'Hugo', 'Étienne', 'Rémi'],
    last: ['Dubois', 'Martin', 'Bernard', 'Lefèvre', 'Moreau', 'Girard', 'Laurent', 'Rousseau', 'Fournier', 'Mercier', 'Lefebvre', 'Gauthier'],
  },
  it: {
    female: ['Chiara', 'Giulia', 'Francesca', 'Valentina', 'Alessia', 'Martina', 'Federica', 'Elisa', 'Sara', 'Paola'],
    male: ['Marco', 'Luca', 'Giuseppe', 'Alessandro', 'Matteo', 'Lorenzo', 'Davide', 'Stefano', 'Riccardo', 'Niccolò'],
    last: ['Rossi', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'Esposito', 'Ferrari'],
  },
  es: {
    female: ['María', 'Lucía', 'Carmen', 'Sofía', 'Paula', 'Elena', 'Marta', 'Nuria', 'Pilar', 'Inés'],
    male: ['Pedro', 'Javier', 'Alejandro', 'Sergio', 'Álvaro', 'Pablo', 'Diego', 'Andrés', 'Raúl', 'Íñigo'],
    last: ['García', 'Fernández', 'González', 'Rodríguez', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Jiménez', 'Muñoz', 'Ortega'],
  },
  nl: {
    female: ['Sanne', 'Femke', 'Lotte', 'Anouk', 'Eline', 'Marieke', 'Fleur', 'Ilse', 'Noor', 'Joke'],
    male: ['Daan', 'Bram', 'Sem', 'Thijs', 'Joost', 'Ruud', 'Pieter', 'Wouter', 'Sjoerd', 'Maarten'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'Bos'],
  },
  nordic: {
    female: ['Ingrid', 'Astrid', 'Sigrid', 'Freja', 'Maja', 'Linnéa', 'Kirsten', 'Solveig', 'Aino', 'Elsa'],
    male: ['Sven', 'Björn', 'Søren', 'Lars', 'Anders', 'Henrik', 'Jukka', 'Mikael', 'Nils', 'Erik'],
    last: ['Jensen', 'Johansson', 'Nielsen', 'Andersson', 'Hansen', 'Karlsson', 'Larsen', 'Virtanen', 'Lindqvist', 'Østergaard', 'Berg', 'Åkesson'],
  },
  pt: {
    female: ['Ana', 'Beatriz', 'Mariana', 'Joana', 'Inês', 'Carolina', 'Leonor', 'Rita', 'Gabriela', 'Luísa'],
    male: ['João', 'Tiago', 'Rodrigo', 'Gonçalo', 'Miguel', 'Rafael', 'André', 'Bruno', 'Vasco', 'Sebastião'],
    last: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Gonçalves', 'Magalhães', 'Simões'],
  },
  tr: {
    female: ['Elif', 'Zeynep', 'Ayşe', 'Fatma', 'Emine', 'Merve', 'Büşra', 'Özlem', 'Gülşen', 'Derya'],
    male: ['Yusuf', 'Mehmet', 'Mustafa', 'Emre', 'Burak', 'Oğuz', 'Çağrı', 'Serkan', 'İbrahim', 'Kemal'],
    last: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan', 'Doğan', 'Koç'],
  },
  cs: {
    female: ['Jana', 'Petra', 'Lucie', 'Tereza', 'Veronika', 'Kateřina', 'Markéta', 'Zuzana', 'Hana', 'Lenka'],
    male: ['Jiří', 'Petr', 'Tomáš', 'Martin', 'Ondřej', 'Jakub', 'Vojtěch', 'Lukáš', 'Miroslav', 'Radek'],
    last: ['Novák', 'Svoboda', 'Novotný', 'Dvořák', 'Černý', 'Procházka', 'Kučera', 'Veselý', 'Horák', 'Němec', 'Marek', 'Pokorný'],
  },
  ja: {
    female: ['Yui', 'Haruka', 'Aoi', 'Sakura', 'Yuki', 'Mei', 'Hina', 'Rin', 'Emi', 'Naoko'],
    male: ['Hiroshi', 'Takeshi', 'Kenji', 'Haruto', 'Sota', 'Ren', 'Daiki', 'Kazuki', 'Shota', 'Yuto'],
    last: ['Tanaka', 'Suzuki', 'Takahashi', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki'],
  },
  en: {
    female: ['Emma', 'Olivia', 'Grace', 'Charlotte', 'Emily', 'Sophie', 'Hannah', 'Chloe', 'Megan', 'Rachel'],
    male: ['Liam', 'Oliver', 'James', 'Harry', 'George', 'Jack', 'Daniel', 'Samuel', 'Ethan', 'Noah'],
    last: ['Smith', 'Johnson', 'Williams', 'Brown', 'Taylor', 'Davies', 'Wilson', 'Evans', 'Thompson', 'Walker', 'Wright', 'Robinson'],
  },
};

/** Country (ISO 3166-1) → the locale of its names and streets. */
export const COUNTRY_LOCALE: Record<string, Locale> = {
  PL: 'pl', DE: 'de', AT: 'de', CH: 'de', LI: 'de', FR: 'fr', BE: 'fr', LU: 'fr', MC: 'fr', IT: 'it', SM: 'it', ES: 'es', MX: 'es',
  AR: 'es', CO: 'es', CL: 'es', PE: 'es', NL: 'nl', DK: 'nordic', SE: 'nordic', NO: 'nordic', FI: 'nordic', IS: 'nordic', PT: 'pt',
  BR: 'pt', TR: 'tr', CZ: 'cs', SK: 'cs', JP: 'ja', GB: 'en', IE: 'en', US: 'en', CA: 'en', AU: 'en', NZ: 'en',
};

/** Streets; numbers go after the name unless NUMBER_FIRST. */
export const STREETS: Record<Locale, string[]> = {
  pl: ['ul. Długa', 'ul. Polna', 'ul. Lipowa', 'ul. Ogrodowa', 'ul. Kwiatowa', 'ul. Słoneczna', 'ul. Leśna', 'al. Róż'],
  de: ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Lindenallee', 'Schulstraße', 'Bergstraße', 'Am Markt', 'Mühlenweg'],
  fr: ['rue de la Paix', 'avenue Victor Hugo', 'rue du Moulin', 'boulevard Voltaire', 'rue des Lilas', 'place de la Mairie'],
  it: ['Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Dante', 'Via dei Mille', 'Piazza Cavour'],
  es: ['Calle Mayor', 'Calle del Sol', 'Avenida de la Paz', 'Calle Real', 'Plaza de España', 'Calle Nueva'],
  nl: ['Dorpsstraat', 'Kerkstraat', 'Molenweg', 'Stationsweg', 'Keizersgracht', 'Schoolstraat'],
  nordic: ['Storgatan', 'Østergade', 'Kirkevej', 'Hämeenkatu', 'Drottninggatan', 'Strandvejen'],
  pt: ['Rua Augusta', 'Avenida da Liberdade', 'Rua do Carmo', 'Rua das Flores', 'Praça do Comércio'],
  tr: ['Atatürk Caddesi', 'Cumhuriyet Caddesi', 'İstiklal Caddesi', 'Gül Sokak', 'Bağdat Caddesi'],
  cs: ['Masarykova', 'Nádražní', 'Školní', 'Husova', 'Palackého', 'Zahradní'],
  ja: ['Chuo-dori', 'Sakura-dori', 'Meiji-dori', 'Aoyama-dori', 'Kita-dori'],
  en: ['High Street', 'Main Street', 'Church Road', 'Park Avenue', 'Station Road', 'Mill Lane', 'Oak Drive'],
};
export const NUMBER_FIRST: ReadonlySet<Locale> = new Set(['en', 'fr']);

export const CITIES: Record<Locale, string[]> = {
  pl: ['Warszawa', 'Kraków', 'Gdańsk', 'Wrocław', 'Poznań', 'Łódź', 'Lublin', 'Toruń'],
  de: ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Düsseldorf', 'Nürnberg', 'Bremen'],
  fr: ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nantes', 'Bordeaux', 'Lille', 'Besançon'],
  it: ['Milano', 'Roma', 'Torino', 'Bologna', 'Firenze', 'Napoli', 'Genova', 'Verona'],
  es: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Málaga', 'Bilbao', 'Córdoba'],
  nl: ['Amsterdam', 'Rotterdam', 'Utrecht', 'Den Haag', 'Eindhoven', 'Groningen'],
  nordic: ['København', 'Stockholm', 'Oslo', 'Helsinki', 'Göteborg', 'Aarhus', 'Tampere'],
  pt: ['Lisboa', 'Porto', 'Braga', 'Coimbra', 'Faro', 'Évora'],
  tr: ['İstanbul', 'Ankara', 'İzmir', 'Bursa', 'Antalya', 'Eskişehir'],
  cs: ['Praha', 'Brno', 'Ostrava', 'Plzeň', 'Olomouc', 'České Budějovice'],
  ja: ['Tokyo', 'Osaka', 'Yokohama', 'Nagoya', 'Sapporo', 'Fukuoka'],
  en: ['London', 'Manchester', 'Dublin', 'New York', 'Chicago', 'Toronto', 'Boston', 'Leeds'],
};

export const UNIT_WORDS: Record<Locale, string> = {
  pl: 'lok.', de: 'Etage', fr: 'Bât.', it: 'Scala', es: 'Piso', nl: 'Bus', nordic: 'Lgh', pt: 'Andar', tr: 'Daire', cs: 'Patro', ja: 'Room', en: 'Suite',
};

/** Company words by locale, for the part of a company name before its legal form. */
export const COMPANY_WORDS: Record<Locale, string[]> = {
  pl: ['Wisła', 'Bałtyk', 'Mazowsze', 'Sokół', 'Orzeł', 'Podhale', 'Źródło', 'Lechia'],
  de: ['Nordwind', 'Alpenglühen', 'Rheinblick', 'Elbtal', 'Tannenhof', 'Süderhof', 'Brückner'],
  fr: ['Lumière', 'Bellevue', 'Horizon', 'Méridien', 'Rivage', 'Étoile'],
  it: ['Aurora', 'Vesuvio', 'Dolomiti', 'Laguna', 'Stella', 'Toscana'],
  es: ['Sol', 'Ibérica', 'Mediterránea', 'Alborada', 'Castilla', 'Brisa'],
  nl: ['Polder', 'Dijkstra', 'Zeewind', 'Tulp', 'Molenaar', 'Kustlijn'],
  nordic: ['Fjord', 'Nordlys', 'Skog', 'Havbris', 'Ålands', 'Vinter'],
  pt: ['Atlântico', 'Douro', 'Lusitânia', 'Tejo', 'Alvorada', 'Mar'],
  tr: ['Anadolu', 'Boğaziçi', 'Ege', 'Yıldız', 'Karadeniz', 'Toros'],
  cs: ['Vltava', 'Šumava', 'Krkonoše', 'Morava', 'Lípa', 'Sokol'],
  ja: ['Sakura', 'Fuji', 'Kaze', 'Hikari', 'Midori', 'Sora'],
  en: ['Bluefield', 'Kestrel', 'Harbor', 'Lumen', 'Quarry', 'Meridian', 'Pinecrest', 'Tidewater', 'Riverbend', 'Solstice'],
};

/** Legal forms kept from the original name (they say the country), each with its locale. Longest first. */
export const LEGAL_FORMS: [form: string, locale: Locale][] = [
  ['GmbH & Co. KG', 'de'], ['sp. z o.o.', 'pl'], ['Sp. z o.o.', 'pl'], ['S.p.A.', 'it'], ['S.r.l.', 'it'], ['s.r.o.', 'cs'], ['a.s.', 'cs'],
  ['GmbH', 'de'], ['AG', 'de'], ['e.K.', 'de'], ['KG', 'de'], ['S.A.', 'es'], ['S.L.', 'es'], ['SARL', 'fr'], ['SAS', 'fr'], ['B.V.', 'nl'],
  ['N.V.', 'nl'], ['A/S', 'nordic'], ['ApS', 'nordic'], ['AB', 'nordic'], ['Oy', 'nordic'], ['AS', 'nordic'], ['Lda.', 'pt'], ['A.Ş.', 'tr'],
  ['K.K.', 'ja'], ['Ltd.', 'en'], ['Ltd', 'en'], ['Limited', 'en'], ['LLC', 'en'], ['Inc.', 'en'], ['Inc', 'en'], ['plc', 'en'], ['PLC', 'en'],
  ['Corp.', 'en'], ['& Co.', 'en'], ['Group', 'en'],
];

export const JOB_TITLES = ['CEO', 'CTO', 'CFO', 'Head of Sales', 'Procurement Manager', 'Operations Lead', 'Finance Director', 'Office Manager', 'Account Executive', 'Marketing Manager', 'IT Administrator', 'Project Manager'];
export const DEAL_THINGS = ['annual license', 'pilot project', 'support renewal', 'fleet rollout', 'data migration', 'onboarding package', 'enterprise upgrade', 'consulting retainer', 'hardware refresh', 'training workshop'];
export const PRODUCT_LINES = ['Consulting day', 'Software license (seat/year)', 'Onboarding workshop', 'Support plan (month)', 'Custom integration', 'Travel expenses', 'Hardware unit', 'Training session', 'Maintenance (quarter)', 'Setup fee'];

/** Neutral sentences free text is rebuilt from: nothing in them can come from the source. */
export const SENTENCES = [
  'Follow up next week.', 'Asked for a revised quote.', 'Prefers email over calls.', 'Budget is approved for next quarter.',
  'Met at the trade fair.', 'Needs a demo for the team.', 'Decision expected after the board meeting.', 'Interested in the annual plan.',
  'Send the contract draft.', 'Called back, no answer.', 'Wants references from similar customers.', 'Renewal is due in spring.',
  'Price was the main concern.', 'Evaluating two other vendors.', 'Introduced by a partner.', 'Security review in progress.',
  'Asked about volume discounts.', 'Prefers a call in the morning.', 'Waiting for the signed order.', 'Legal is reviewing the terms.',
  'Moved the meeting to Thursday.', 'Needs an invoice per department.', 'Trial ends at the end of the month.', 'Happy with the support so far.',
  'Wants to start with one team.', 'Asked for the data sheet.', 'Procurement joins the next call.', 'Interested in the integration.',
  'Sent the proposal by email.', 'Follow up after the holidays.', 'Compared us with the incumbent.', 'New contact after a reorganisation.',
  'Requested an on-site visit.', 'Budget was cut this year.', 'Likes the reporting features.', 'Expects a decision in two weeks.',
];

export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];
export const WEBSITE_WORDS = ['acme', 'northwind', 'contoso', 'fabrikam', 'globex', 'initech', 'umbrella', 'tailspin', 'wingtip', 'litware'];
