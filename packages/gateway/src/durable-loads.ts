/**
 * Durable runs: the tools a session has loaded (a catalog tool called before it was loaded in `tools` mode, a
 * `tool_search` hit in `native` mode, a client's deferred tool a served search found) are kept in the state store under
 * the session id (`@tool-search/state`'s `loadedTools`), so the session's next turn, on this replica, another one or
 * after a restart, offers them without searching again. Only names are kept: each is offered again only where this
 * turn's run would load it (the mode's `loadOnCall`, which sees the policy-filtered catalog), so a tool the policy
 * denies now stays unknown. The store is an optimization: when it does not answer, the turn goes on without it.
 */
import { errorMessage } from '@tool-search/kernel';
import type { ProviderExposure } from '@tool-search/provider-formats';
import type { LoadedTools } from '@tool-search/state';
import type { DeferredTools } from './deferred.js';

export interface DurableLoads {
  /** The names the session loaded in earlier turns (empty without a store). */
  readonly names: ReadonlySet<string>;
  /** Loads the stored names into the exposure (modes with `loadOnCall`), so they go with the tools as loaded ones. */
  restore(exposure: ProviderExposure): Promise<void>;
  /** The client's deferred tools with the stored names among them loaded too (after the ones its history loaded). */
  deferred(deferred: DeferredTools | undefined): DeferredTools | undefined;
  /** Records the names this turn loaded. */
  save(names: readonly string[]): Promise<void>;
}

const NONE: DurableLoads = {
  names: new Set(),
  restore: async () => undefined,
  deferred: (deferred) => deferred,
  save: async () => undefined,
};

export async function durableLoads(
  store: LoadedTools | undefined,
  sessionId: string,
  log: ((line: string) => void) | undefined,
): Promise<DurableLoads> {
  if (!store) return NONE;
  const warn = (what: string, error: unknown) =>
    log?.(`gateway: the loaded tools of session ${sessionId} could not be ${what}: ${errorMessage(error)}`);
  let stored: string[];
  try {
    stored = await store.read(sessionId);
  } catch (error) {
    warn('read', error);
    return NONE;
  }
  const names = new Set(stored);
  return {
    names,
    async restore(exposure) {
      for (const name of names) {
        // A call of a name the exposure does not route runs nothing: the mode's loadOnCall loads it (policy applied)
        // and the call answers with its schema, or it is unknown (denied now, gone) and nothing changes.
        if (!exposure.has(name)) await exposure.call(name, {});
      }
    },
    deferred(deferred) {
      if (!deferred || !names.size) return deferred;
      const known = new Set(deferred.tools.map((tool) => tool.function.name));
      const extra = [...names].filter((name) => known.has(name) && !deferred.loaded.includes(name));
      return extra.length ? { ...deferred, loaded: [...deferred.loaded, ...extra] } : deferred;
    },
    async save(loaded) {
      const fresh = loaded.filter((name) => !names.has(name));
      if (!fresh.length) return;
      try {
        await store.add(sessionId, fresh);
      } catch (error) {
        warn('saved', error);
      }
    },
  };
}
