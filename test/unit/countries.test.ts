import { describe, expect, it } from 'vitest';
import { Address } from '../../src/schemas/client.js';

/** Every two-letter code, AA to ZZ. */
const ALL = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));
const accepted = ALL.filter((country) => Address.safeParse({ country }).success);

describe('address.country', () => {
  it('accepts the 249 ISO 3166-1 alpha-2 codes and XK, nothing else', () => {
    expect(accepted).toHaveLength(250);
    expect(accepted).toEqual(expect.arrayContaining(['DE', 'GB', 'US', 'XK', 'SS', 'CW', 'BQ', 'AQ']));
    for (const country of ['UK', 'EU', 'UN', 'ZZ', 'XA', 'YU', 'AN', 'de', 'DEU', '']) expect(Address.safeParse({ country }).success, country).toBe(false);
  });

  it("is the ICU region list that ships with Node, less CLDR's own, reserved and withdrawn codes", () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    const notIso = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ'.split(' '));
    expect(accepted).toEqual(ALL.filter((code) => !notIso.has(code) && names.of(code) !== code));
  });
});
