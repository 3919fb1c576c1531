import { randomBytes } from 'node:crypto';

/**
 * Prefixed, time-sortable ids (`deal_01JD…`): a ULID after the prefix. Sorting by id is sorting by
 * creation, which is what keyset pagination relies on, so ids made in the same millisecond
 * increase monotonically instead of being random.
 */
export type IdPrefix =
  | 'lead' | 'cli' | 'con' | 'deal' | 'inv' | 'evt' | 'we' | 'whd' | 'key' | 'app' | 'req' | 'mail';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32
const RANDOM_MAX = (1n << 80n) - 1n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export class IdGenerator {
  private lastTime = -1;
  private lastRandom = 0n;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly random: () => bigint = () => BigInt('0x' + randomBytes(10).toString('hex')),
  ) {}

  next(prefix: IdPrefix): string {
    let time = this.clock();
    if (time <= this.lastTime && this.lastRandom < RANDOM_MAX) {
      time = this.lastTime;
      this.lastRandom += 1n;
    } else {
      this.lastTime = time;
      // Leave head-room so same-millisecond increments never overflow into the time part.
      this.lastRandom = this.random() >> 1n;
    }
    return `${prefix}_${encode(BigInt(time), 10)}${encode(this.lastRandom, 16)}`;
  }
}

const shared = new IdGenerator();
export const newId = (prefix: IdPrefix): string => shared.next(prefix);
