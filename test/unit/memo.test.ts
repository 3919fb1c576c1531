import { describe, expect, it } from 'vitest';
import { memoize } from '../../src/memo.js';

describe('memoize', () => {
  it('computes a key once, keeps no key over the length bound, and forgets everything at the entry bound', () => {
    const calls: string[] = [];
    const length = memoize((key: string) => (calls.push(key), key.length), { maxEntries: 2, maxKeyLength: 3 });
    expect([length('a'), length('a'), length('bb'), length('bb')]).toEqual([1, 1, 2, 2]);
    expect(calls).toEqual(['a', 'bb']);
    length('long'); // over the length bound: computed each time, never kept
    length('long');
    expect(calls).toEqual(['a', 'bb', 'long', 'long']);
    length('ccc'); // a third short key: the memory (two entries) is emptied first
    length('a');
    expect(calls).toEqual(['a', 'bb', 'long', 'long', 'ccc', 'a']);
    expect(length('ccc')).toBe(3);
    expect(calls).toHaveLength(6);
  });

  it('remembers false as an answer', () => {
    let calls = 0;
    const no = memoize(() => (calls++, false), { maxEntries: 10, maxKeyLength: 10 });
    expect([no('x'), no('x')]).toEqual([false, false]);
    expect(calls).toBe(1);
  });
});
