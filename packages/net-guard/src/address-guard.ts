/**
 * Which addresses a model-chosen URL may reach. Cloud metadata at 169.254.169.254, admin consoles on 10.x and
 * services on localhost must not be reachable from a tool, so only public unicast addresses pass unless the operator
 * allows private ones. The check runs on the addresses DNS actually returned, inside the connection's own lookup, so
 * a name that resolves differently on a second lookup (DNS rebinding) is checked on the address that is used.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';

/** Names a refusal speaks with: the tool that refused and the setting that would allow it. */
export interface AddressRule {
  readonly tool: string;
  readonly setting: string;
}

export type AddressAllowed = (address: string) => boolean;

/** The range name ipaddr.js gives an address ('unicast' is public); IPv4-mapped IPv6 is named by its IPv4 form. */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && addressRange(address) === 'unicast';
}

/** A host that is an IP literal in any spelling (`0x7f000001`, `2130706433`, `[::1]`), normalized; else undefined. */
export function ipLiteral(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? ipaddr.parse(bare).toString() : undefined;
}

/** `URL_NOT_ALLOWED` (`details.rule: 'privateAddress'`) naming the tool and the setting that lifts the rule. */
export function refusedAddress(host: string, address: string, rule: AddressRule): ToolSearchError {
  const range = addressRange(address);
  return new ToolSearchError(
    ErrorCode.URL_NOT_ALLOWED,
    `${rule.tool} refused ${host}: it resolves to ${address} (${range}), not a public address; set ${rule.setting} to allow it`,
    { details: { rule: 'privateAddress', host, address, range } },
  );
}

/** A `dns.lookup` replacement for a connection: resolves every address and fails if any is not allowed (default: not public). */
export function guardedLookup(rule: AddressRule, allowed: AddressAllowed = isPublicAddress): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !allowed(entry.address));
      if (refused) return callback(refusedAddress(hostname, refused.address, rule) as unknown as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a host before anything connects: an IP literal directly, a name on every address DNS gives now. A later
 * connection must still go through `guardedLookup` (the answer may change); this only fails early with a clear error.
 */
export async function checkHost(host: string, rule: AddressRule, allowed: AddressAllowed = isPublicAddress): Promise<void> {
  const literal = ipLiteral(host);
  if (literal !== undefined) {
    if (!allowed(literal)) throw refusedAddress(host, literal, rule);
    return;
  }
  const addresses = await new Promise<{ address: string }[]>((resolve) => {
    // A name that does not resolve is not refused here: the connection reports it as the network error it is.
    dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found));
  });
  const refused = addresses.find((entry) => !allowed(entry.address));
  if (refused) throw refusedAddress(host, refused.address, rule);
}
