/**
 * Applies resolved rules to tools. Pure set logic: a tool stays only if every
 * rule keeps it, so a deny anywhere wins whatever the order. The trace of a
 * tool lists each step up to the one that dropped it; for an allow rule made
 * of a profile and the lists that add to it, the step named is the part that
 * kept the tool.
 */
import { editDistance, ErrorCode, type PolicyStep } from '@tool-search/kernel';
import { claimedTool, firstMatch, isLookalikeName, matchesEntry, type MatchableTool } from '@tool-search/tool-match';
import { PolicyErrors } from './errors.js';
import type { PolicyDiagnostic, PolicyEvaluation, PolicyRule, ResolvedPolicy, RulePart } from './types.js';

export interface EvaluateOptions {
  /** A tool source failed to list in this run: an allowlist naming no listed tool stays in force. */
  readonly listingIncomplete?: boolean;
  /** Tools listed in earlier runs: an allowlist naming one whose source is still running stays in force. */
  readonly seen?: Iterable<MatchableTool>;
}

/**
 * Decides which of `tools` the policy keeps. `listed` is every tool the run
 * knows (for allowlists that name only tools that are not loaded).
 */
export function evaluatePolicy<T extends MatchableTool>(
  policy: ResolvedPolicy,
  tools: readonly T[],
  listed: readonly MatchableTool[] = tools,
  options: EvaluateOptions = {},
): PolicyEvaluation<T> {
  const diagnostics: PolicyDiagnostic[] = [];
  const active = policy.rules.map((rule) => activeRule(rule, listed, options, diagnostics));
  const kept: T[] = [];
  const traces = new Map<string, PolicyStep[]>();
  const dropped = new Map<string, PolicyStep>();
  const droppedBySandbox: T[] = [];
  for (const tool of tools) {
    const steps: PolicyStep[] = [];
    let drop: { step: PolicyStep; rule: PolicyRule } | undefined;
    for (const rule of active) {
      const step = decide(rule, tool);
      steps.push(step);
      if (!step.kept) {
        drop = { step, rule: rule.rule };
        break;
      }
    }
    if (!drop && tool.meta?.explicitOnly === true) {
      const step = explicitStep(policy, tool);
      steps.push(step);
      if (!step.kept) drop = { step, rule: EXPLICIT_RULE };
    }
    if (steps.length) traces.set(tool.id, steps);
    if (!drop) {
      kept.push(tool);
      continue;
    }
    dropped.set(tool.id, drop.step);
    if (drop.rule.layer === 'sandbox' && (tool.source === 'plugin' || tool.source === 'mcp' || tool.source === 'skill'))
      droppedBySandbox.push(tool);
  }
  if (droppedBySandbox.length) diagnostics.push(sandboxNotice(droppedBySandbox));
  const impostors = tools.filter((tool) => dropped.has(tool.id) && claimedTool(tool) !== undefined);
  if (impostors.length) diagnostics.push(impostorNotice(impostors, dropped));
  const lookalikes = listed.filter((tool) => isLookalikeName(tool.name));
  if (lookalikes.length) diagnostics.push(lookalikeNotice(lookalikes));
  return { kept, traces, dropped, diagnostics };
}

const EXPLICIT_RULE: PolicyRule = {
  step: 'explicitOnly',
  effect: 'allow',
  entries: [],
  path: 'tools.alsoAllow',
  layer: 'tools',
};

/**
 * An explicit-only tool (the gateway tool) stays only where an allow list of the run names it by name or id: a profile,
 * a group, a glob, `*` or no allowlist at all never offers it.
 */
function explicitStep(policy: ResolvedPolicy, tool: MatchableTool): PolicyStep {
  const named = (entry: string) => {
    const wanted = entry.trim().toLowerCase();
    return wanted === tool.name.toLowerCase() || wanted === tool.id.toLowerCase();
  };
  const part = policy.naming?.find((p) => p.entries.some(named));
  return part
    ? { step: part.step, kept: true, rule: part.entries.find(named)! }
    : {
        step: 'explicitOnly',
        kept: false,
        rule: `${tool.name} is offered only where tools.alsoAllow (or an agent's tools.alsoAllow / allow) names it`,
      };
}

interface ActiveRule {
  readonly rule: PolicyRule;
  /** Allow rules: the parts in force (an ignored part is left out). */
  readonly parts: readonly RulePart[];
  /** Every part was ignored: the rule keeps every tool. */
  readonly ignored: boolean;
}

function activeRule(
  rule: PolicyRule,
  listed: readonly MatchableTool[],
  options: EvaluateOptions,
  diagnostics: PolicyDiagnostic[],
): ActiveRule {
  if (rule.unknownProfile !== undefined) {
    diagnostics.push({
      code: ErrorCode.CONFIG_INVALID,
      level: 'error',
      message: `${rule.path} names unknown profile "${rule.unknownProfile}", so every tool was dropped (fail closed); use minimal, coding, messaging or full`,
      details: { path: rule.path, profile: rule.unknownProfile },
    });
    return { rule, parts: [], ignored: false };
  }
  if (rule.effect !== 'allow') return { rule, parts: [], ignored: false };
  const parts = rule.parts ?? [{ step: rule.step, path: rule.path, entries: rule.entries }];
  const inForce = parts.filter((part) => {
    if (!part.ignoreWhenUnknown || part.entries.some((entry) => entry.includes('*'))) return true;
    const unknown = part.entries.filter((entry) => !listed.some((tool) => matchesEntry(entry, tool)));
    if (unknown.length < part.entries.length) {
      if (unknown.length) diagnostics.push(unknownEntriesNotice(part, unknown, listed));
      return true;
    }
    const held = heldBecause(part, listed, options);
    diagnostics.push(held ? keptNotice(part, held) : ignoredNotice(part, listed, parts.length > 1));
    return held !== undefined;
  });
  return { rule, parts: inForce, ignored: inForce.length === 0 };
}

type HeldReason = 'listing-incomplete' | 'source-running';

/**
 * Why an allowlist naming no listed tool stays in force (fail closed), if it does: a source failed to list, or
 * its entries name tools of a source that is running but no longer lists them (a vanished tool must not open the run).
 */
function heldBecause(
  part: RulePart,
  listed: readonly MatchableTool[],
  options: EvaluateOptions,
): HeldReason | undefined {
  if (options.listingIncomplete) return 'listing-incomplete';
  const running = new Set(listed.map(ownerKey));
  if (part.entries.some((entry) => running.has(entryOwner(entry) ?? ''))) return 'source-running';
  for (const tool of options.seen ?? []) {
    if (running.has(ownerKey(tool)) && part.entries.some((entry) => matchesEntry(entry, tool))) return 'source-running';
  }
  return undefined;
}

function ownerKey(tool: MatchableTool): string {
  return `${tool.source}:${tool.owner}`.toLowerCase();
}

/** `mcp:notes:notes_search` → `mcp:notes`. */
function entryOwner(entry: string): string | undefined {
  const match = /^(core|plugin|mcp|client):([^:]+):/i.exec(entry);
  return match ? `${match[1]}:${match[2]}`.toLowerCase() : undefined;
}

function decide({ rule, parts, ignored }: ActiveRule, tool: MatchableTool): PolicyStep {
  const step = rule.step;
  if (rule.unknownProfile !== undefined) return { step, kept: false, rule: `unknown profile "${rule.unknownProfile}"` };
  if (ignored) return { step, kept: true, rule: 'allowlist ignored: it names no listed tool' };
  if (rule.effect === 'allow') {
    for (const part of parts) {
      const match = firstMatch(part.entries, tool, 'allow');
      if (match !== undefined) return { step: part.step, kept: true, rule: match };
    }
    return { step, kept: false, rule: 'no allow entry matches' };
  }
  const match = firstMatch(rule.entries, tool, 'deny');
  return match !== undefined ? { step, kept: false, rule: match } : { step, kept: true };
}

function ignoredNotice(part: RulePart, listed: readonly MatchableTool[], addsToProfile: boolean): PolicyDiagnostic {
  const { suggestions, hints } = closestTools(part.entries, listed);
  return {
    code: PolicyErrors.POLICY_ALLOWLIST_IGNORED,
    level: 'warning',
    message:
      `${part.path} (${part.entries.join(', ')}) matches no listed tool and was ignored` +
      (addsToProfile
        ? ', so it adds nothing to the profile'
        : ' so core tools stay available; profile, byProvider and deny still apply') +
      (hints.length ? `; did you mean ${hints.join(', ')}?` : ''),
    details: { path: part.path, step: part.step, entries: [...part.entries], suggestions },
  };
}

/** Some entries of an allowlist in force name no listed tool (a typo, or a plugin that is not loaded): they add nothing. */
function unknownEntriesNotice(
  part: RulePart,
  unknown: readonly string[],
  listed: readonly MatchableTool[],
): PolicyDiagnostic {
  const { suggestions, hints } = closestTools(unknown, listed);
  return {
    code: PolicyErrors.POLICY_ALLOWLIST_IGNORED,
    level: 'warning',
    message:
      `${part.path} entr${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((e) => `"${e}"`).join(', ')} match${unknown.length === 1 ? 'es' : ''} no listed tool and add${unknown.length === 1 ? 's' : ''} nothing` +
      (hints.length ? `; did you mean ${hints.join(', ')}?` : ''),
    details: { path: part.path, step: part.step, entries: [...unknown], suggestions, partial: true },
  };
}

function closestTools(
  entries: readonly string[],
  listed: readonly MatchableTool[],
): { suggestions: Record<string, string>; hints: string[] } {
  const suggestions: Record<string, string> = {};
  for (const entry of entries) {
    const closest = closestTool(entry, listed);
    if (closest !== undefined) suggestions[entry] = closest;
  }
  return { suggestions, hints: Object.entries(suggestions).map(([entry, name]) => `"${name}" for "${entry}"`) };
}

function keptNotice(part: RulePart, reason: HeldReason): PolicyDiagnostic {
  const why =
    reason === 'listing-incomplete'
      ? 'a tool source failed to list'
      : 'it names tools of a source that is running but no longer lists them';
  return {
    code: PolicyErrors.POLICY_ALLOWLIST_IGNORED,
    level: 'warning',
    message: `${part.path} names no listed tool (${part.entries.join(', ')}), but ${why}, so the allowlist stays in force (fail closed)`,
    details: { path: part.path, entries: [...part.entries], kept: true, reason },
  };
}

/** The listed tool name closest to an unknown entry (`raed` → `read`), when it is plausibly a typo. */
function closestTool(entry: string, listed: readonly MatchableTool[]): string | undefined {
  const wanted = entry.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const tool of listed) {
    const name = tool.name.toLowerCase();
    const distance = editDistance(wanted, name);
    if (!best || distance < best.distance || (distance === best.distance && name < best.name.toLowerCase()))
      best = { name: tool.name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 3)) ? best.name : undefined;
}

/** Names that only look like plain ASCII: deny and approval entries also match their folded form. */
function lookalikeNotice(tools: readonly MatchableTool[]): PolicyDiagnostic {
  const shown = tools.slice(0, 20).map((tool) => JSON.stringify(tool.id));
  return {
    code: PolicyErrors.TOOL_NAME_LOOKALIKE,
    level: 'warning',
    message:
      `${tools.length} listed tool name(s) only look like plain ASCII (${shown.join(', ')}${tools.length > shown.length ? ', …' : ''}): ` +
      'deny and approval entries also match their folded form (NFKC, invisible characters removed, confusables folded); allow entries match the raw name only',
    details: { toolIds: tools.slice(0, 100).map((tool) => tool.id), count: tools.length },
  };
}

/** Client tools dropped while named like a catalog tool (`EXEC`, `core:core:exec`): say which and why. */
function impostorNotice(tools: readonly MatchableTool[], dropped: ReadonlyMap<string, PolicyStep>): PolicyDiagnostic {
  const claims = Object.fromEntries(tools.map((tool) => [tool.id, claimedTool(tool)!.id]));
  return {
    code: ErrorCode.POLICY_DENIED,
    level: 'warning',
    message:
      `${tools.length} client tool(s) named like a catalog tool were dropped (${tools
        .slice(0, 20)
        .map((t) => `${JSON.stringify(t.name)} as ${claims[t.id]}`)
        .join(', ')}): ` +
      'deny entries and groups read a client tool as the tool its name claims (case, lookalike characters and id prefixes folded); rename the client tool',
    details: {
      toolIds: tools.map((t) => t.id),
      claims,
      rules: Object.fromEntries(tools.map((t) => [t.id, dropped.get(t.id)?.rule])),
    },
  };
}

/** One notice per run: which plugin/MCP tools the sandbox step dropped and how to allow them. */
function sandboxNotice(tools: readonly MatchableTool[]): PolicyDiagnostic {
  const plugins = unique(tools.filter((t) => t.source === 'plugin').map((t) => t.owner));
  const mcpServers = unique(tools.filter((t) => t.source === 'mcp').map((t) => t.owner));
  const skillServers = unique(tools.filter((t) => t.source === 'skill').map((t) => t.owner));
  const hints = [
    ...(plugins.length ? ['group:plugins', ...plugins] : []),
    ...mcpServers.map((server) => `mcp:${server}:*`),
    ...skillServers.map((server) => `skill:${server}:*`),
  ];
  return {
    code: ErrorCode.POLICY_DENIED,
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
