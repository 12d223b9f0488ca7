/**
 * The fail-closed tool policy as a kernel plugin: taps `filterPolicy` at
 * `STAGE.POLICY` to narrow the catalog (recording why, per tool, for
 * `run.explain`), and re-checks every call in `beforeToolCall`, blocking a
 * tool its filter dropped or never saw (defence in depth). A run whose agent
 * id names no agent is refused (`AGENT_UNKNOWN`) for every front end here.
 */
import {
  STAGE,
  type CallDecision,
  type KernelPlugin,
  type PolicyStep,
  type RunInfo,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { evaluatePolicy } from './evaluate.js';
import { parsePolicyOptions } from './options.js';
import { resolvePolicy } from './resolve.js';
import type { PolicyOptions } from './types.js';

export const POLICY_PLUGIN = '@tool-search/policy';

interface RunDecision {
  readonly kept: ReadonlySet<string>;
  readonly dropped: ReadonlyMap<string, PolicyStep>;
}

/** Throws `ConfigError` (`CONFIG_INVALID`) for an invalid policy, before any run exists. */
export function policyPlugin(options: PolicyOptions = {}): KernelPlugin {
  const config = parsePolicyOptions(options);
  // Keyed by the run's frozen RunInfo, which the kernel hands to both hooks.
  const decisions = new WeakMap<RunInfo, RunDecision>();
  // Tools listed by earlier runs: an allowlist naming a tool its running source stopped listing stays in force.
  const seen = new Map<string, ToolDescriptor>();
  return {
    name: POLICY_PLUGIN,
    apply({ hooks }) {
      hooks.filterPolicy.tap({ stage: STAGE.POLICY }, (tools, ctx) => {
        const policy = resolvePolicy(config, ctx.run.request);
        const result = evaluatePolicy(policy, tools, ctx.listed, {
          listingIncomplete: ctx.listingErrors.length > 0,
          seen: seen.values(),
        });
        remember(seen, ctx.listed);
        for (const [toolId, steps] of result.traces) for (const step of steps) ctx.trace(toolId, step);
        for (const diagnostic of result.diagnostics) ctx.diagnostic(diagnostic);
        decisions.set(ctx.run, { kept: new Set(result.kept.map((tool) => tool.id)), dropped: result.dropped });
        return result.kept;
      });

      hooks.beforeToolCall.tap({ stage: STAGE.POLICY }, (call, ctx): CallDecision | undefined => {
        const decision = decisions.get(ctx.run);
        if (!decision)
          return {
            action: 'block',
            reason: `The tool policy has no decision for this run, so ${call.tool.id} is blocked (fail closed)`,
          };
        if (decision.kept.has(call.tool.id)) return undefined;
        const step = decision.dropped.get(call.tool.id);
        const why = step
          ? `dropped at step ${step.step}${step.rule ? ` (${step.rule})` : ''}`
          : 'not in the catalog the policy filtered';
        return { action: 'block', reason: `The tool policy does not allow ${call.tool.id}: ${why}` };
      });
    },
  };
}

const MAX_SEEN = 50_000;

function remember(seen: Map<string, ToolDescriptor>, listed: readonly ToolDescriptor[]): void {
  for (const tool of listed) {
    if (seen.size >= MAX_SEEN && !seen.has(tool.id)) seen.delete(seen.keys().next().value!);
    seen.set(tool.id, tool);
  }
}
