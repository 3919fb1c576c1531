import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, listeningOn, localBaseUrl, networkUrls } from '../../src/sandbox/listen-address.js';

const at = (address: string, family = address.includes(':') ? 'IPv6' : 'IPv4') => ({ address, family, port: 4010 });

describe('listen addresses', () => {
  it('tells loopback addresses from the others', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'fe80::1', '::ffff:192.168.1.5', '128.0.0.1']) expect(isLoopbackAddress(a), a).toBe(false);
  });

  it('the base URL works from this machine: 127.0.0.1 for every interface, else the address itself', () => {
    expect(localBaseUrl(at('0.0.0.0'))).toBe('http://127.0.0.1:4010');
    expect(localBaseUrl(at('::'))).toBe('http://127.0.0.1:4010');
    expect(localBaseUrl(at('127.0.0.1'))).toBe('http://127.0.0.1:4010');
    expect(localBaseUrl(at('::1'))).toBe('http://[::1]:4010');
    expect(localBaseUrl(at('192.168.1.5'))).toBe('http://192.168.1.5:4010');
    expect(listeningOn(at('::'))).toBe('[::]:4010');
    expect(listeningOn(at('0.0.0.0'))).toBe('0.0.0.0:4010');
  });

  it('names the URLs other machines would use', () => {
    expect(networkUrls(at('127.0.0.1'))).toEqual([]);
    expect(networkUrls(at('192.168.1.5'))).toEqual(['http://192.168.1.5:4010']);
    const external = Object.values(networkInterfaces())
      .flatMap((a) => a ?? [])
      .filter((a) => !a.internal && a.family === 'IPv4');
    expect(networkUrls(at('0.0.0.0'))).toEqual(external.map((a) => `http://${a.address}:4010`));
  });
});
