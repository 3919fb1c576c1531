import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawFrom, mutatePath, PATH_MUTATIONS, percentEncode, TRAILERS, withQuery, type PathMutation } from '../../scripts/fuzz/path-mutations.js';

/** Each kind of the path fuzzer spells the same path otherwise, in the way its name says, and nothing more. */
const segment = fc.constantFrom(
  'v1',
  '_sandbox',
  'dashboard',
  'docs',
  'healthz',
  'leads',
  'accounts',
  'lead_01KEYRJ8W01WFB25Z6GQAVVART',
  'acct_01M88CHYW3B8W4ZDM2Z9RQZ1WY',
  'snapshots',
  'restore',
  'api_keys',
);
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`);
const picks = fc.array(fc.nat(), { minLength: 16, maxLength: 16 });
const mutated = (kind: PathMutation) => fc.tuple(path, picks).map(([p, n]) => ({ path: p, out: mutatePath(p, kind, drawFrom(n)) }));

/** What a WHATWG URL parser makes of the path: dot segments, encoded ones too, resolved. */
const resolved = (p: string) => new URL(p, 'http://127.0.0.1').pathname;

describe('path mutations', () => {
  it('encoded_char: decodes back to the path', () => {
    fc.assert(fc.property(mutated('encoded_char'), ({ path, out }) => out !== path && decodeURIComponent(out) === path && /%[0-9A-Fa-f]{2}/.test(out)));
  });

  it('encoded_slash: a slash as %2F or %2f', () => {
    fc.assert(fc.property(mutated('encoded_slash'), ({ path, out }) => /%2f/i.test(out) && [path, `/${path}`].includes(decodeURIComponent(out))));
  });

  it('dot_segment: resolves to the path (a trailing slash aside)', () => {
    fc.assert(fc.property(mutated('dot_segment'), ({ path, out }) => out !== path && resolved(out).replace(/(.)\/$/, '$1') === path));
  });

  it('double_slash: the path with a slash doubled or tripled', () => {
    fc.assert(fc.property(mutated('double_slash'), ({ path, out }) => out !== path && out.replace(/\/{2,}/g, '/') === path));
  });

  it('case_change: the same letters in another case', () => {
    fc.assert(fc.property(mutated('case_change'), ({ path, out }) => out !== path && out.toLowerCase() === path.toLowerCase()));
  });

  it('trailing: one of the trailers after the path or one of its segments', () => {
    fc.assert(
      fc.property(mutated('trailing'), ({ path, out }) =>
        TRAILERS.some((t) => [...out].some((_, i) => out.startsWith(t, i) && out.slice(0, i) + out.slice(i + t.length) === path)),
      ),
    );
  });

  it('every kind gives a request target Node sends as it is: starts with a slash, visible ASCII only', () => {
    for (const kind of PATH_MUTATIONS) {
      fc.assert(fc.property(mutated(kind), ({ out }) => out.startsWith('/') && /^[\x21-\x7e]+$/.test(out)));
    }
  });

  it('gives the brief’s examples', () => {
    expect(percentEncode('_', false)).toBe('%5F');
    expect(percentEncode('_', true)).toBe('%5f');
    expect(percentEncode('v', false)).toBe('%76');
    // encoded_char: first segment (0), upper hex (1), one character (0), the first one (0).
    expect(mutatePath('/_sandbox/accounts', 'encoded_char', drawFrom([0, 1, 0, 0]))).toBe('/%5Fsandbox/accounts');
    expect(mutatePath('/v1/leads', 'encoded_char', drawFrom([0, 1, 0, 0]))).toBe('/%761/leads');
    // dot_segment: form `/.` (0), a name it does not use (0), not at the start (1), the second boundary (1).
    expect(mutatePath('/v1/leads', 'dot_segment', drawFrom([0, 0, 1, 1]))).toBe('/v1/./leads');
    // form `/{n}/..` (3), `dashboard` (3), at the start (0).
    expect(mutatePath('/v1/leads', 'dot_segment', drawFrom([3, 3, 0]))).toBe('/dashboard/../v1/leads');
    expect(mutatePath('/v1/leads', 'case_change', drawFrom([2]))).toBe('/V1/Leads');
  });

  it('keeps the query before a fragment and after a ? the mutation left', () => {
    expect(withQuery('/v1/leads', 'limit=1')).toBe('/v1/leads?limit=1');
    expect(withQuery('/v1/leads?', 'limit=1')).toBe('/v1/leads?&limit=1');
    expect(withQuery('/v1/leads#', 'limit=1')).toBe('/v1/leads?limit=1#');
    expect(withQuery('/v1/leads', '')).toBe('/v1/leads');
  });
});
