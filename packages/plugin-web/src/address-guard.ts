/**
 * Which addresses `web_fetch` may connect to. A model-chosen URL must not
 * reach the machine itself or its network (cloud metadata at 169.254.169.254,
 * admin consoles on 10.x, services on localhost), so only public unicast
 * addresses pass unless the operator sets `allowPrivate`. The check runs on
 * the addresses DNS actually returned, inside the connection's own lookup, so
 * a name that resolves differently on a second lookup (DNS rebinding) is
 * checked on the address that is used.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';

/** The range name ipaddr.js gives an address ('unicast' is public). */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && addressRange(address) === 'unicast';
}

export function refusedAddress(host: string, address: string): ToolSearchError {
  return new ToolSearchError(
    ErrorCode.URL_NOT_ALLOWED,
    `web_fetch refused ${host}: it resolves to ${address} (${addressRange(address)}), not a public address; set tools.web.fetch.allowPrivate to allow it`,
    { details: { rule: 'privateAddress', host, address, range: addressRange(address) } },
  );
}

/** A `dns.lookup` replacement for the connection: resolves every address and fails if any is not allowed (default: not public). */
export const guardedLookup = (allowed: (address: string) => boolean = isPublicAddress): LookupFunction => (hostname, options, callback) => {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
  dnsLookup(hostname, { all: true, family }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !allowed(entry.address));
    if (refused) return callback(refusedAddress(hostname, refused.address) as unknown as NodeJS.ErrnoException, []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};
