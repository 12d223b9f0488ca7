/**
 * Runs `filterPolicy` fail-closed: every tap must return a subset of its input
 * (same descriptor objects, no additions, no duplicates), and a tap that throws
 * fails the run. Drops are recorded in the explain trace even when a tap does
 * not say why.
 */
import { ErrorCode, ToolSearchError } from './errors.js';
import type { KernelHooks } from './hooks.js';
import type { Diagnostic, PolicyContext, PolicyStep, RunInfo, ToolDescriptor } from './types.js';
import { errorMessage } from './error-message.js';

interface TracingPolicyContext extends PolicyContext {
  readonly steps: Map<string, PolicyStep[]>;
}

export function guardPolicyTaps(hooks: KernelHooks): void {
  hooks.filterPolicy.intercept({
    name: '@tool-search/kernel:subset',
    register: (tap) => {
      const original = tap.fn as (tools: readonly ToolDescriptor[], ctx: PolicyContext) => unknown;
      const plugin = tap.name;
      const fn = (tools: readonly ToolDescriptor[], ctx: TracingPolicyContext): readonly ToolDescriptor[] => {
        let result: unknown;
        const tapCtx: TracingPolicyContext = {
          ...ctx,
          trace: (toolId, step) => ctx.trace(toolId, { ...step, plugin }),
          diagnostic: (diagnostic) => ctx.diagnostic({ ...diagnostic, plugin } as Diagnostic),
        };
        try {
          result = original(tools, tapCtx);
        } catch (error) {
          if (ToolSearchError.isInstance(error)) throw error;
          throw new ToolSearchError(
            ErrorCode.POLICY_FAILED,
            `Policy plugin "${plugin}" failed: ${errorMessage(error)}; the run is refused`,
            {
              plugin,
              hook: 'filterPolicy',
              cause: error,
            },
          );
        }
        const narrowed = assertSubset(result, tools, plugin);
        recordDrops(tools, narrowed, plugin, ctx);
        return narrowed;
      };
      return { ...tap, fn };
    },
  });
}

function assertSubset(result: unknown, input: readonly ToolDescriptor[], plugin: string): readonly ToolDescriptor[] {
  const fail = (why: string) =>
    new ToolSearchError(
      ErrorCode.POLICY_NOT_SUBSET,
      `Policy plugin "${plugin}" returned ${why}; a filterPolicy tap may only remove tools`,
      {
        plugin,
        hook: 'filterPolicy',
      },
    );
  if (!Array.isArray(result)) throw fail('something that is not an array');
  // Read the tap's answer exactly once (by index, not its own iterator): what is checked is what the run gets.
  const snapshot: unknown[] = Array.prototype.slice.call(result);
  const allowed = new Set(input);
  const seen = new Set<ToolDescriptor>();
  for (const tool of snapshot) {
    if (!allowed.has(tool as ToolDescriptor)) {
      const id = (tool as { id?: unknown } | null)?.id;
      throw fail(`a tool that was not in its input (${typeof id === 'string' ? id : 'unknown object'})`);
    }
    if (seen.has(tool as ToolDescriptor)) throw fail(`the tool ${(tool as ToolDescriptor).id} twice`);
    seen.add(tool as ToolDescriptor);
  }
  return Object.freeze(snapshot as ToolDescriptor[]);
}

function recordDrops(
  before: readonly ToolDescriptor[],
  after: readonly ToolDescriptor[],
  plugin: string,
  ctx: TracingPolicyContext,
): void {
  if (before.length === after.length) return;
  const kept = new Set(after);
  for (const tool of before) {
    if (kept.has(tool)) continue;
    const steps = ctx.steps.get(tool.id) ?? [];
    const last = steps[steps.length - 1];
    if (!last || last.kept || last.plugin !== plugin) {
      steps.push({ step: plugin, kept: false, plugin, rule: 'dropped without a recorded rule' });
      ctx.steps.set(tool.id, steps);
    }
  }
}

/** Applies every policy tap to the listed catalog. Throws (fail closed) on any violation. */
export function applyPolicy(
  hooks: KernelHooks,
  listed: readonly ToolDescriptor[],
  run: RunInfo,
  diagnostics: Diagnostic[],
): { effective: readonly ToolDescriptor[]; steps: Map<string, PolicyStep[]> } {
  const steps = new Map<string, PolicyStep[]>();
  const ctx: TracingPolicyContext = {
    run,
    listed,
    listingErrors: diagnostics.filter((d) => d.hook === 'listTools' && d.level === 'error'),
    steps,
    trace: (toolId, step) => {
      const list = steps.get(toolId) ?? [];
      list.push(step);
      steps.set(toolId, list);
    },
    diagnostic: (diagnostic) => diagnostics.push({ ...diagnostic, hook: 'filterPolicy' }),
  };
  const effective = hooks.filterPolicy.isUsed() ? hooks.filterPolicy.call(listed, ctx) : listed;
  return { effective, steps };
}
