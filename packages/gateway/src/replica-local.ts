/**
 * What a replica needs to tell a request meant for another one apart: with a
 * shared (Redis) store, the owners of suspended client-tool hand-offs. An
 * in-process store is one replica, so nothing is recorded there.
 */
import type { StateStore } from '@tool-search/state';
import { handoffOwners, type HandoffOwners } from './handoff-owners.js';

export function replicaLocal(
  options: { readonly state?: StateStore; readonly clientCallTtlMs?: number },
  log: (line: string) => void,
): { handoffOwners?: HandoffOwners } {
  if (!options.state || options.state.kind === 'memory') return {};
  return { handoffOwners: handoffOwners(options.state, options.clientCallTtlMs ?? 300_000, log) };
}
