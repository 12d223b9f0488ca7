/**
 * Turns the config sections and a run request into the ordered rules that
 * apply to that run. Every rule only narrows, so the result is the same set
 * whatever the order; the order is what `run.explain` shows:
 * 1. profile (agent's, else global)  2. byProvider (global, then agent)
 * 3. tools.allow/deny, then the agent's allow/deny  4. sandbox (sandboxed runs only).
 */
import { providerCandidates as kernelProviderCandidates, type RunRequest } from '@tool-search/kernel';
import { isProfileName, PROFILES, SANDBOX_DEFAULTS } from './groups.js';
import type { AgentConfig, AllowDeny, PolicyLayer, PolicyOptions, PolicyRule, ProviderPolicyConfig, ResolvedPolicy } from './types.js';

export function resolvePolicy(options: PolicyOptions, request: Readonly<RunRequest> = {}): ResolvedPolicy {
  const tools = options.tools ?? {};
  const rules: PolicyRule[] = [];
  const agent = findAgent(options.agents?.list, request.agentId);
  const agentTools = agent?.config.tools ?? {};
  const agentStep = agent ? `agents.list[${agent.config.id}].tools` : '';
  const agentPath = agent ? `agents.list[${agent.index}].tools` : '';

  // 1. Base profile: the agent's replaces the global one.
  //    `alsoAllow` (global and the agent's) extends whichever profile applies.
  const alsoAllow = [...(tools.alsoAllow ?? []), ...(agent ? (agentTools.alsoAllow ?? []) : [])];
  if (agent && agentTools.profile !== undefined) rules.push(profileRule(agentTools.profile, '', `${agentPath}.profile`, 'profile', alsoAllow));
  else if (tools.profile !== undefined) rules.push(profileRule(tools.profile, '', 'tools.profile', 'profile', alsoAllow));

  // 2. byProvider: the most specific matching key, per scope.
  const candidates = providerCandidates(request);
  const providerKeys: string[] = [];
  for (const key of matchingKeys(tools.byProvider, candidates)) {
    providerKeys.push(key);
    pushScope(rules, tools.byProvider![key]!, `tools.byProvider[${key}]`, `tools.byProvider[${key}]`, 'byProvider');
  }
  if (agent) {
    for (const key of matchingKeys(agentTools.byProvider, candidates)) {
      providerKeys.push(key);
      pushScope(rules, agentTools.byProvider![key]!, `${agentStep}.byProvider[${key}]`, `${agentPath}.byProvider[${key}]`, 'byProvider');
    }
  }

  // 3. Global allow/deny, then the agent's as a further step.
  pushAllowDeny(rules, tools, 'tools', 'tools', 'tools', true);
  if (agent) pushAllowDeny(rules, agentTools, agentStep, agentPath, 'agent', true);

  // 4. Sandbox: the agent's `sandbox.tools` replaces the global one as a whole;
  //    a field left out falls back to the default (fail closed).
  const sandboxed = request.sandboxed === true;
  if (sandboxed) pushSandbox(rules, agent, agentStep, agentPath, tools.sandbox?.tools);

  return { rules, ...(agent ? { agentId: agent.config.id } : {}), providerKeys, sandboxed };
}

/** `provider/model` (most specific) then `provider`, lower-cased (the kernel's definition, shared with config). */
export const providerCandidates = kernelProviderCandidates;

function findAgent(list: readonly AgentConfig[] | undefined, agentId: string | undefined): { config: AgentConfig; index: number } | undefined {
  if (!Array.isArray(list) || typeof agentId !== 'string') return undefined;
  const wanted = agentId.toLowerCase();
  const index = list.findIndex((agent) => typeof agent?.id === 'string' && agent.id.toLowerCase() === wanted);
  return index >= 0 ? { config: list[index]!, index } : undefined;
}

/** Keys equal (case-insensitively) to the most specific candidate that has any. */
function matchingKeys(map: { readonly [key: string]: ProviderPolicyConfig } | undefined, candidates: readonly string[]): string[] {
  if (!map || typeof map !== 'object') return [];
  const keys = Object.keys(map);
  for (const candidate of candidates) {
    const found = keys.filter((key) => key.trim().toLowerCase() === candidate);
    if (found.length) return found;
  }
  return [];
}

function profileRule(name: string, stepPrefix: string, path: string, layer: PolicyLayer, alsoAllow: readonly string[] = []): PolicyRule {
  const step = `${stepPrefix}profile:${name}`;
  if (!isProfileName(name)) return { step, effect: 'allow', entries: [], path, layer, unknownProfile: name };
  if (name === 'full') return { step, effect: 'allow', entries: PROFILES[name], path, layer };
  return { step, effect: 'allow', entries: [...PROFILES[name], ...alsoAllow], path, layer };
}

function pushScope(rules: PolicyRule[], scope: ProviderPolicyConfig, step: string, path: string, layer: PolicyLayer): void {
  if (scope.profile !== undefined) rules.push(profileRule(scope.profile, `${step}.`, `${path}.profile`, layer, scope.alsoAllow));
  pushAllowDeny(rules, scope, step, path, layer, false);
}

function pushAllowDeny(rules: PolicyRule[], scope: AllowDeny, step: string, path: string, layer: PolicyLayer, ignoreWhenUnknown: boolean): void {
  // `allow: []` is no allowlist (OpenClaw: "if allow is non-empty, everything else is blocked").
  if (scope.allow?.length) {
    rules.push({ step: `${step}.allow`, effect: 'allow', entries: [...scope.allow, ...(scope.alsoAllow ?? [])], path: `${path}.allow`, layer, ...(ignoreWhenUnknown ? { ignoreWhenUnknown } : {}) });
  }
  if (scope.deny?.length) rules.push({ step: `${step}.deny`, effect: 'deny', entries: scope.deny, path: `${path}.deny`, layer });
}

function pushSandbox(
  rules: PolicyRule[],
  agent: { config: AgentConfig } | undefined,
  agentStep: string,
  agentPath: string,
  global: AllowDeny | undefined,
): void {
  const own = agent?.config.tools?.sandbox?.tools;
  const chosen = own !== undefined ? { config: own, step: `${agentStep}.sandbox.tools`, path: `${agentPath}.sandbox.tools` } : global !== undefined ? { config: global, step: 'tools.sandbox.tools', path: 'tools.sandbox.tools' } : undefined;
  const allow = chosen?.config.allow;
  const deny = chosen?.config.deny;
  const defaults = { step: 'sandbox.defaults', path: 'sandbox.defaults' };
  const allowFrom = allow !== undefined ? chosen! : defaults;
  const denyFrom = deny !== undefined ? chosen! : defaults;
  pushAllowDeny(rules, { allow: allow ?? SANDBOX_DEFAULTS.allow, ...(chosen?.config.alsoAllow ? { alsoAllow: chosen.config.alsoAllow } : {}) }, allowFrom.step, allowFrom.path, 'sandbox', false);
  pushAllowDeny(rules, { deny: deny ?? SANDBOX_DEFAULTS.deny }, denyFrom.step, denyFrom.path, 'sandbox', false);
}
