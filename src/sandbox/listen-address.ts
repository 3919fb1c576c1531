import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * What the address the sandbox listens on means for who can reach it. The sandbox holds test keys,
 * webhook secrets and payment links over plain HTTP, so it listens on 127.0.0.1 unless told
 * otherwise; `crm sandbox start` warns when it was told otherwise (src/cli/commands/sandbox/sandbox.ts).
 */

const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';

/** 127.0.0.0/8, ::1, or either written as an IPv4-mapped IPv6 address: only this machine reaches it. */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1' || address === '0:0:0:0:0:0:0:1';
}

const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** `127.0.0.1:4010`, `[::]:4010`: where it listens, as the server bound it. */
export const listeningOn = (info: AddressInfo): string => `${hostOf(info.address)}:${info.port}`;

/**
 * The base URL for the user on this machine, which every printed link and payment link starts
 * with: on every interface (0.0.0.0 or ::) that is 127.0.0.1, which such a socket also answers
 * (Node listens on both families for ::); otherwise the address itself.
 */
export const localBaseUrl = (info: AddressInfo): string => `http://${isWildcard(info.address) ? '127.0.0.1' : hostOf(info.address)}:${info.port}`;

/** The URLs other machines would use: this machine's non-loopback addresses for a wildcard, else the address. */
export function networkUrls(info: AddressInfo): string[] {
  if (isLoopbackAddress(info.address)) return [];
  if (!isWildcard(info.address)) return [`http://${hostOf(info.address)}:${info.port}`];
  const families = info.address === '::' ? ['IPv4', 'IPv6'] : ['IPv4'];
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((a) => !a.internal && families.includes(a.family) && !a.address.startsWith('fe80:'))
    .map((a) => `http://${hostOf(a.address)}:${info.port}`);
}
