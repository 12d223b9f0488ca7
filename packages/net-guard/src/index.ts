// The public surface of @tool-search/net-guard: named exports only.
export { addressRange, isPublicAddress, ipLiteral, refusedAddress, guardedLookup, checkHost } from './address-guard.js';
export type { AddressRule, AddressAllowed } from './address-guard.js';
export { NetGuardErrors } from './errors.js';
