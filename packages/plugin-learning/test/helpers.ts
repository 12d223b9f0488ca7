/**
 * The learning fixture catalog of @tool-search/testing, and a run driven the way the exposure modes drive one: `searchRanked`
 * through the run's rerank hooks, the `search` event, then `run.call`.
 */
import { createKernel, type Diagnostic, type Kernel, type KernelPlugin, type RunApi } from '@tool-search/kernel';
import { policyPlugin } from '@tool-search/policy';
import { indexForRun } from '@tool-search/search';
import { LEARNING_QUERY, LEARNING_TARGET, learningCatalog } from '@tool-search/testing';

export const QUERY = LEARNING_QUERY;
export const TARGET = LEARNING_TARGET;
export const catalog: KernelPlugin = learningCatalog('billing-tools');

/** Blocks every call of a session whose id starts with "blocked" (an approval or a guard saying no). */
const blocker: KernelPlugin = {
  name: 'blocker',
  apply: ({ hooks }) =>
    hooks.beforeToolCall.tap((_call, ctx) =>
      ctx.run.sessionId.startsWith('blocked') ? { action: 'block' as const, reason: 'not now' } : undefined,
    ),
};

/** Collects every diagnostic event of every run. */
export function diagnostics(): KernelPlugin & { readonly seen: Diagnostic[] } {
  const seen: Diagnostic[] = [];
  return {
    name: 'diagnostics',
    seen,
    apply: ({ hooks }) =>
      hooks.runEvent.tap((event) => void (event.type === 'diagnostic' && seen.push(event.diagnostic))),
  };
}

export function kernelWith(...plugins: KernelPlugin[]): Kernel {
  return createKernel({
    plugins: [
      policyPlugin({
        tools: {},
        agents: {
          list: [
            { id: 'no-cold-storage', tools: { deny: ['move_to_cold_storage'] } },
            ...['teacher', 'agent-a', 'agent-b'].map((id) => ({ id })),
          ],
        },
      }),
      catalog,
      blocker,
      ...plugins,
    ],
  });
}

/** One search as the modes run it: ranked through the run's rerank taps, logged as a search event. */
export async function search(run: RunApi, query = QUERY, limit = 10): Promise<{ ids: string[]; ranker: string }> {
  const { result, ranker } = await indexForRun(run, { maxSearchLimit: 20 }).searchRanked(query, { limit });
  const hits = result.hits.map((hit) => hit.id);
  run.emit({
    type: 'search',
    queries: [query],
    hits,
    origin: 'tool_call',
    results: [{ query, hits, weak: result.weak === true }],
  });
  return { ids: hits, ranker: ranker.id };
}

/** `times` sessions of one agent that search `query` and call `tool`. */
export async function teach(
  kernel: Kernel,
  times: number,
  agentId?: string,
  tool = TARGET,
  query = QUERY,
): Promise<void> {
  for (let i = 0; i < times; i++) {
    const run = await kernel.createRun({ sessionId: `teach-${i}`, ...(agentId ? { agentId } : {}) });
    await search(run, query);
    const outcome = await run.call(tool, {}, { origin: 'tool_call' });
    if (outcome.status !== 'ok') throw new Error(`teaching call ${tool} was ${outcome.status}`);
    await run.close();
  }
}

/** Polls `probe` until it returns true (a loaded machine: a deadline, not a sleep). */
export async function eventually(probe: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
