/**
 * Other spellings of a request path (docs/reliability.md#paths---path-runs-n-20-by-default): the forms a router may decode, normalise or refuse,
 * and a check on the raw URL may read differently from the router. Each takes the canonical path
 * (no query) and a source of random naturals, so fast-check decides every choice and a seed replays it.
 */
export const PATH_MUTATIONS = ['encoded_char', 'encoded_slash', 'dot_segment', 'double_slash', 'case_change', 'trailing', 'combined'] as const;
export type PathMutation = (typeof PATH_MUTATIONS)[number];

/** Draws a number below n from the case's random naturals, in order (cycling if it runs out). */
export type Draw = (n: number) => number;

export function drawFrom(picks: number[]): Draw {
  let i = 0;
  return (n) => (n <= 1 ? 0 : picks[i++ % picks.length]! % n);
}

/** What `trailing` appends: the brief's list, and neighbours a parser may treat as a delimiter or an escape. */
export const TRAILERS = ['/', '//', ';', ';x=1', '%00', '%20', '.json', '?', '#', '%', '%2', '%2F', '%5C', '\\', '%2e', '%1b', '%c2%9b'] as const;

/** Segment names `dot_segment` climbs out of: a plain one, and the prefixes checks look for. */
const DOT_NAMES = ['x', 'v1', '_sandbox', 'dashboard'];
const DOT_FORMS = ['/.', '/%2e', '/%2E', '/{n}/..', '/{n}/%2e%2e', '/{n}/%2E%2E', '/{n}/.%2e', '/{n}/%2e.'];

export function mutatePath(path: string, kind: PathMutation, draw: Draw): string {
  switch (kind) {
    case 'encoded_char':
      return encodeChars(path, draw);
    case 'encoded_slash':
      return encodeSlash(path, draw);
    case 'dot_segment':
      return dotSegment(path, draw);
    case 'double_slash':
      return doubleSlash(path, draw);
    case 'case_change':
      return changeCase(path, draw);
    case 'trailing':
      return trail(path, draw);
    case 'combined': {
      // Two or three of the others in a row: `/%5FSANDBOX//accounts/`.
      const others = PATH_MUTATIONS.filter((k) => k !== 'combined');
      let out = path;
      for (let n = 2 + draw(2); n > 0; n--) out = mutatePath(out, others[draw(others.length)]!, draw);
      return out;
    }
  }
}

/** `%XX` in upper or lower hex; letters in hex (`_` → `%5F`/`%5f`) make the two differ. */
export function percentEncode(char: string, lower: boolean): string {
  const hex = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return lower ? hex : hex.toUpperCase();
}

/** Indexes of characters that are not a slash and not part of an escape already there. */
function plainIndexes(path: string, from = 0, to = path.length): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    if (path[i] === '%') {
      i += 2;
      continue;
    }
    if (path[i] !== '/') out.push(i);
  }
  return out;
}

/** Where the first segment ends: the part prefix checks (`/v1/`, `/_sandbox/`, `/dashboard`) read. */
function firstSegmentEnd(path: string): number {
  const next = path.indexOf('/', 1);
  return next < 0 ? path.length : next;
}

function encodeChars(path: string, draw: Draw): string {
  // Half the time in the first segment: that is where a check on the raw URL looks.
  const inFirst = draw(2) === 0;
  const candidates = inFirst ? plainIndexes(path, 0, firstSegmentEnd(path)) : plainIndexes(path);
  if (candidates.length === 0) return encodeSlash(path, draw);
  const lower = draw(2) === 0;
  const chosen = new Set<number>();
  for (let n = 1 + draw(3); n > 0; n--) chosen.add(candidates[draw(candidates.length)]!);
  let out = '';
  for (let i = 0; i < path.length; i++) out += chosen.has(i) ? percentEncode(path[i]!, lower) : path[i];
  return out;
}

function slashIndexes(path: string): number[] {
  return [...path].flatMap((c, i) => (c === '/' ? [i] : []));
}

function encodeSlash(path: string, draw: Draw): string {
  const encoded = draw(2) === 0 ? '%2F' : '%2f';
  const inner = slashIndexes(path).filter((i) => i > 0);
  // A path of one segment has no inner slash: an encoded one right after the first (`/%2Fhealthz`).
  if (inner.length === 0) return `/${encoded}${path.slice(1)}`;
  const at = inner[draw(inner.length)]!;
  return path.slice(0, at) + encoded + path.slice(at + 1);
}

/**
 * `/v1/./leads`, `/v1/x/../leads`, `/v1/../_sandbox/accounts`, and their encoded forms. Half the time
 * at the very start, where climbing out of a prefix (`/dashboard/../v1/leads`) fools a check on it.
 */
function dotSegment(path: string, draw: Draw): string {
  const form = DOT_FORMS[draw(DOT_FORMS.length)]!.replace('{n}', DOT_NAMES[draw(DOT_NAMES.length)]!);
  const boundaries = [...slashIndexes(path), path.length];
  const at = draw(2) === 0 ? 0 : boundaries[draw(boundaries.length)]!;
  return path.slice(0, at) + form + path.slice(at);
}

function doubleSlash(path: string, draw: Draw): string {
  const slashes = slashIndexes(path);
  const at = slashes[draw(slashes.length)]!;
  return path.slice(0, at) + '/'.repeat(2 + draw(2)) + path.slice(at + 1);
}

function changeCase(path: string, draw: Draw): string {
  const variants = [
    () => path.toUpperCase(),
    () => path.slice(0, firstSegmentEnd(path)).toUpperCase() + path.slice(firstSegmentEnd(path)),
    // Each segment's first letter: `/V1/Leads`, `/_Sandbox/Accounts`.
    () => path.replace(/\/([^a-z/]*)([a-z])/g, (_m, pre: string, c: string) => `/${pre}${c.toUpperCase()}`),
    () => [...path].map((c) => (draw(2) ? c.toUpperCase() : c)).join(''),
  ];
  const out = variants[draw(variants.length)]!();
  // Lower-case letters are in every path we fuzz; a variant that changed none gets the whole path upper-cased.
  return out === path ? path.toUpperCase() : out;
}

/** One of TRAILERS after the path, or (a third of the time) after one of its segments: `/_sandbox;/accounts`. */
function trail(path: string, draw: Draw): string {
  const trailer = TRAILERS[draw(TRAILERS.length)]!;
  const ends = slashIndexes(path).filter((i) => i > 0);
  if (ends.length === 0 || draw(3) !== 0) return path + trailer;
  const at = ends[draw(ends.length)]!;
  return path.slice(0, at) + trailer + path.slice(at);
}

/** The request target: the mutated path with the case's query, kept before a fragment and after a `?` the mutation left. */
export function withQuery(path: string, query: string): string {
  if (!query) return path;
  const hash = path.indexOf('#');
  const [base, fragment] = hash < 0 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`;
}
