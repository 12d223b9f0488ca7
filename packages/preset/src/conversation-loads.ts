/**
 * Durable runs for the framework adapters: with a `conversationId`, the tools a conversation's searches found are kept
 * in the state store (`@tool-search/state`'s `loadedTools`) under that id, so a run that resumes the conversation (a
 * new process, a replayed workflow, a LangGraph thread resumed from its checkpoint) opens with them already loaded.
 * The store: the `state` option, else the config's `state.redis`, else one in this process. Names only, read back
 * through the run's policy-filtered surface: a tool the policy denies now is not offered.
 */
import { connectRedisState, loadedTools, MemoryStateStore, type StateStore } from '@tool-search/state';
import type { RunSurface, ToolSearchRun } from './open-run.js';

export interface ConversationLoads {
  /** Surface names of catalog tools the conversation loaded before (only those this run's surface offers). */
  readonly names: ReadonlySet<string>;
  /** Records tools this conversation loaded now (no-op without a `conversationId`). */
  remember(names: readonly string[]): Promise<void>;
  /** Closes the store if it was opened for this run (from the config's `state.redis`). */
  close(): Promise<void>;
}

export interface ConversationLoadsOptions {
  /** The conversation (an AI SDK chat id, a LangGraph `thread_id`, an OpenAI Agents session id); without it nothing is kept. */
  readonly conversationId?: string;
  readonly state?: StateStore;
}

const NONE: ConversationLoads = { names: new Set(), remember: async () => undefined, close: async () => undefined };
let processState: MemoryStateStore | undefined;

export async function conversationLoads(
  opened: ToolSearchRun,
  surface: RunSurface,
  options: ConversationLoadsOptions,
): Promise<ConversationLoads> {
  const { conversationId } = options;
  if (conversationId === undefined) return NONE;
  const redis = opened.config.state?.redis;
  const owned = options.state ? undefined : redis ? await connectRedisState(redis) : undefined;
  const state = options.state ?? owned ?? (processState ??= new MemoryStateStore());
  try {
    const record = loadedTools(state);
    const offered = new Set(surface.tools.filter((tool) => tool.catalogMode === 'catalog').map((tool) => tool.name));
    const names = new Set((await record.read(conversationId)).filter((name) => offered.has(name)));
    let closing: Promise<void> | undefined;
    return {
      names,
      async remember(found) {
        const fresh = found.filter((name) => !names.has(name));
        for (const name of fresh) names.add(name);
        if (fresh.length) await record.add(conversationId, fresh);
      },
      close: () => (closing ??= owned ? owned.close() : Promise.resolve()),
    };
  } catch (error) {
    await owned?.close();
    throw error;
  }
}
