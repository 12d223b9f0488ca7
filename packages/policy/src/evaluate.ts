/**
 * Applies resolved rules to tools. Pure set logic: a tool stays only if every
 * rule keeps it, so a deny anywhere wins whatever the order. The trace of a
 * tool lists each step up to the one that dropped it.
 */
import type { PolicyStep } from '@tool-search/kernel';
import { firstMatch, matchesEntry, type MatchableTool } from '@tool-search/tool-match';
import type { PolicyDiagnostic, PolicyEvaluation, PolicyRule, ResolvedPolicy } from './types.js';

/**
 * Decides which of `tools` the policy keeps. `listed` is every tool the run
 * knows (for allowlists that name only tools that are not loaded).
 */
export function evaluatePolicy<T extends MatchableTool>(
  policy: ResolvedPolicy,
  tools: readonly T[],
  listed: readonly MatchableTool[] = tools,
  options: { listingIncomplete?: boolean } = {},
): PolicyEvaluation<T> {
  // When a source failed to list, "names no known tool" may only mean "names a tool of the failed source":
  // the allowlist then stays in force (fail closed) instead of being ignored.
  const active = policy.rules.map((rule) => {
    const unknown = isIgnored(rule, listed);
    return { rule, ignored: unknown && !options.listingIncomplete, keptBecauseIncomplete: unknown && options.listingIncomplete === true };
  });
  const diagnostics: PolicyDiagnostic[] = active.flatMap(({ rule, ignored, keptBecauseIncomplete }) => [
    ...ruleDiagnostics(rule, ignored),
    ...(keptBecauseIncomplete
      ? [
          {
            code: 'POLICY_ALLOWLIST_IGNORED' as const,
            level: 'warning' as const,
            message: `${rule.path} names no listed tool (${rule.entries.join(', ')}), but a tool source failed to list, so the allowlist stays in force (fail closed)`,
            details: { path: rule.path, entries: rule.entries, kept: true },
          },
        ]
      : []),
  ]);
  const kept: T[] = [];
  const traces = new Map<string, PolicyStep[]>();
  const dropped = new Map<string, PolicyStep>();
  const droppedBySandbox: T[] = [];
  for (const tool of tools) {
    const steps: PolicyStep[] = [];
    let drop: { step: PolicyStep; rule: PolicyRule } | undefined;
    for (const { rule, ignored } of active) {
      const step = decide(rule, ignored, tool);
      steps.push(step);
      if (!step.kept) {
        drop = { step, rule };
        break;
      }
    }
    if (steps.length) traces.set(tool.id, steps);
    if (!drop) {
      kept.push(tool);
      continue;
    }
    dropped.set(tool.id, drop.step);
    if (drop.rule.layer === 'sandbox' && (tool.source === 'plugin' || tool.source === 'mcp')) droppedBySandbox.push(tool);
  }
  if (droppedBySandbox.length) diagnostics.push(sandboxNotice(droppedBySandbox));
  return { kept, traces, dropped, diagnostics };
}

function decide(rule: PolicyRule, ignored: boolean, tool: MatchableTool): PolicyStep {
  const step = rule.step;
  if (rule.unknownProfile !== undefined) return { step, kept: false, rule: `unknown profile "${rule.unknownProfile}"` };
  if (ignored) return { step, kept: true, rule: 'allowlist ignored: it names no listed tool' };
  const match = firstMatch(rule.entries, tool, rule.effect);
  if (rule.effect === 'allow') return match !== undefined ? { step, kept: true, rule: match } : { step, kept: false, rule: 'no allow entry matches' };
  return match !== undefined ? { step, kept: false, rule: match } : { step, kept: true };
}

/** An allowlist of plain names that match no listed tool (e.g. a plugin that is not loaded). Matched broadly, so an entry that names any tool in any way keeps the allowlist. */
function isIgnored(rule: PolicyRule, listed: readonly MatchableTool[]): boolean {
  if (rule.effect !== 'allow' || !rule.ignoreWhenUnknown || rule.unknownProfile !== undefined) return false;
  if (rule.entries.some((entry) => entry.includes('*'))) return false;
  return !listed.some((tool) => rule.entries.some((entry) => matchesEntry(entry, tool)));
}

function ruleDiagnostics(rule: PolicyRule, ignored: boolean): PolicyDiagnostic[] {
  if (rule.unknownProfile !== undefined) {
    return [
      {
        code: 'CONFIG_INVALID',
        level: 'error',
        message: `${rule.path} names unknown profile "${rule.unknownProfile}", so every tool was dropped (fail closed); use minimal, coding, messaging or full`,
        details: { path: rule.path, profile: rule.unknownProfile },
      },
    ];
  }
  if (!ignored) return [];
  return [
    {
      code: 'POLICY_ALLOWLIST_IGNORED',
      level: 'warning',
      message: `${rule.path} (${rule.entries.join(', ')}) matches no listed tool and was ignored so core tools stay available; profile, byProvider and deny still apply`,
      details: { path: rule.path, step: rule.step, entries: [...rule.entries] },
    },
  ];
}

/** One notice per run: which plugin/MCP tools the sandbox step dropped and how to allow them. */
function sandboxNotice(tools: readonly MatchableTool[]): PolicyDiagnostic {
  const plugins = unique(tools.filter((t) => t.source === 'plugin').map((t) => t.owner));
  const mcpServers = unique(tools.filter((t) => t.source === 'mcp').map((t) => t.owner));
  const hints = [...(plugins.length ? ['group:plugins', ...plugins] : []), ...mcpServers.map((server) => `mcp:${server}:*`)];
  return {
    code: 'POLICY_DENIED',
    level: 'warning',
    message:
      `The sandbox tool policy dropped ${tools.length} plugin/MCP tool(s) from this sandboxed run. To allow them, add ` +
      `${hints.map((h) => `"${h}"`).join(', ')} to tools.sandbox.tools.allow (or agents.list[].tools.sandbox.tools.allow) and keep them out of its deny list`,
    details: { layer: 'sandbox', toolIds: tools.map((t) => t.id), plugins, mcpServers, allowHints: hints },
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
