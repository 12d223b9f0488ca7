/**
 * Which addresses `web_fetch` may connect to: the rule of `@tool-search/net-guard` (public unicast only unless
 * `tools.web.fetch.allowPrivate`), checked on the addresses DNS actually returned, inside the connection's own lookup.
 */
import type { LookupFunction } from 'node:net';
import {
  guardedLookup as netGuardedLookup,
  isPublicAddress,
  refusedAddress as netRefusedAddress,
  type AddressRule,
} from '@tool-search/net-guard';
import type { ToolSearchError } from '@tool-search/kernel';

export { addressRange, isPublicAddress } from '@tool-search/net-guard';

const WEB_FETCH_RULE: AddressRule = { tool: 'web_fetch', setting: 'tools.web.fetch.allowPrivate' };

export function refusedAddress(host: string, address: string): ToolSearchError {
  return netRefusedAddress(host, address, WEB_FETCH_RULE);
}

/** A `dns.lookup` replacement for the connection: resolves every address and fails if any is not allowed (default: not public). */
export const guardedLookup = (allowed: (address: string) => boolean = isPublicAddress): LookupFunction =>
  netGuardedLookup(WEB_FETCH_RULE, allowed);
