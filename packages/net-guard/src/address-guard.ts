/**
 * Which addresses a model-chosen URL may reach. Cloud metadata at 169.254.169.254, admin consoles on 10.x and
 * services on localhost must not be reachable from a tool, so only public unicast addresses pass unless the operator
 * allows private ones. The check runs on the addresses DNS actually returned, inside the connection's own lookup, so
 * a name that resolves differently on a second lookup (DNS rebinding) is checked on the address that is used.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ToolSearchError } from '@tool-search/kernel';
import { NetGuardErrors } from './errors.js';

/** Names a refusal speaks with: the tool that refused and the setting that would allow it. */
export interface AddressRule {
  readonly tool: string;
  readonly setting: string;
}

export type AddressAllowed = (address: string) => boolean;

/**
 * The range an address is judged by: ipaddr.js's name ('unicast' is public), except that IPv6 forms which embed an
 * IPv4 address are judged by that address, and the IPv6 space outside global unicast (2000::/3) is not public:
 * - `::ffff:a.b.c.d` (mapped) and `::ffff:0:a.b.c.d` (SIIT, RFC 6145): the IPv4 address the socket reaches;
 * - `64:ff9b::a.b.c.d` (NAT64, RFC 6052): the IPv4 address the translator connects to;
 * - `2002:aabb:ccdd::/16` (6to4): the IPv4 relay address in bits 16–48;
 * - `2001:0::/32` (Teredo): the server (bits 32–64) and the client (last 32 bits, inverted) must both be public;
 * - `::a.b.c.d` (IPv4-compatible, deprecated by RFC 4291) and `64:ff9b:1::/48` (local-use NAT64, RFC 8215): refused.
 * A refused embedded form is named `<form>:<ipv4 range>`, e.g. `6to4:loopback`.
 */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'unparsable';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  const v4 = (high: number, low: number) =>
    ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;
  const embedded = (form: string, ...addresses: ipaddr.IPv4[]) => {
    const refused = addresses.map((a) => a.range()).find((range) => range !== 'unicast');
    return refused ? `${form}:${refused}` : 'unicast';
  };
  const prefixZero = (n: number) => parts.slice(0, n).every((p) => p === 0);
  if (v6.isIPv4MappedAddress()) return embedded('ipv4Mapped', v6.toIPv4Address());
  if (prefixZero(4) && parts[4] === 0xffff && parts[5] === 0) return embedded('rfc6145', v4(parts[6]!, parts[7]!));
  if (prefixZero(6) && (parts[6] !== 0 || parts[7]! > 1)) return 'ipv4Compatible';
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0))
    return embedded('nat64', v4(parts[6]!, parts[7]!));
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 1) return 'nat64LocalUse';
  if (parts[0] === 0x2002) return embedded('6to4', v4(parts[1]!, parts[2]!));
  if (parts[0] === 0x2001 && parts[1] === 0)
    return embedded('teredo', v4(parts[2]!, parts[3]!), v4(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff));
  const range = v6.range();
  if (range === 'unicast' && (parts[0]! & 0xe000) !== 0x2000) return 'notGlobalUnicast';
  return range;
}

/** Public unicast, by `addressRange`; an address ipaddr.js cannot parse is not public (fail closed). */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
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
    NetGuardErrors.URL_NOT_ALLOWED,
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
      if (refused)
        return callback(refusedAddress(hostname, refused.address, rule) as unknown as NodeJS.ErrnoException, []);
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
export async function checkHost(
  host: string,
  rule: AddressRule,
  allowed: AddressAllowed = isPublicAddress,
): Promise<void> {
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
