/**
 * Turns the config sections and a run request into the ordered rules that
 * apply to that run. Within a scope, `profile` is the base allowlist and
 * `allow` (and `alsoAllow`) add to it; without a profile, `allow` alone is the
 * allowlist. Across scopes every rule only narrows, so deny wins whatever the
 * order; the order is what `run.explain` shows:
 * 1. base: the agent's profile (with its allow), else the global profile (with tools.allow)
 * 2. byProvider (global, then agent)  3. tools.allow without a profile, tools.deny, then the agent's
 * 4. sandbox (sandboxed runs only).
 */
import {
  editDistance,
  ErrorCode,
  suggestIds,
  ToolSearchError,
  type RunRequest,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { providerCandidates as sharedProviderCandidates } from '@tool-search/provider-formats';
import { isProfileName, PROFILES, SANDBOX_DEFAULTS } from './groups.js';
import type {
  AgentConfig,
  AllowDeny,
  PolicyLayer,
  PolicyOptions,
  PolicyRule,
  ProviderPolicyConfig,
  ResolvedPolicy,
  RulePart,
} from './types.js';

/** Throws `AGENT_UNKNOWN` (with did-you-mean) for an agent id that is not in `agents.list`. */
export function resolvePolicy(options: PolicyOptions, request: Readonly<RunRequest> = {}): ResolvedPolicy {
  const tools = options.tools ?? {};
  const rules: PolicyRule[] = [];
  const agent = findAgent(options.agents?.list, request.agentId);
  const agentTools = agent?.config.tools ?? {};
  const agentStep = agent ? `agents.list[${agent.config.id}].tools` : '';
  const agentPath = agent ? `agents.list[${agent.index}].tools` : '';
  const alsoAllow = (scope: AllowDeny, step: string, path: string): RulePart[] =>
    scope.alsoAllow?.length ? [{ step: `${step}.alsoAllow`, path: `${path}.alsoAllow`, entries: scope.alsoAllow }] : [];
  // `alsoAllow` (global and the agent's) extends whichever base applies.
  const extra = [...alsoAllow(tools, 'tools', 'tools'), ...(agent ? alsoAllow(agentTools, agentStep, agentPath) : [])];

  // 1. Base: the agent's profile replaces the global one, with the allow list that adds to it.
  const agentBase = agent && agentTools.profile !== undefined;
  if (agentBase)
    rules.push(
      profileRule(agentTools.profile!, '', `${agentPath}.profile`, 'profile', [
        ...allowPart(agentTools, agentStep, agentPath, true),
        ...extra,
      ]),
    );
  else if (tools.profile !== undefined)
    rules.push(
      profileRule(tools.profile, '', 'tools.profile', 'profile', [
        ...allowPart(tools, 'tools', 'tools', true),
        ...extra,
      ]),
    );

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
      pushScope(
        rules,
        agentTools.byProvider![key]!,
        `${agentStep}.byProvider[${key}]`,
        `${agentPath}.byProvider[${key}]`,
        'byProvider',
      );
    }
  }

  // 3. An allowlist without a profile in its scope, and deny: global, then the agent's.
  //    A global tools.allow that added to the global profile went with it when the agent replaced the profile.
  if (tools.profile === undefined)
    pushAllowlist(rules, allowPart(tools, 'tools', 'tools', true), alsoAllow(tools, 'tools', 'tools'), 'tools');
  pushDeny(rules, tools, 'tools', 'tools', 'tools');
  if (agent) {
    if (!agentBase)
      pushAllowlist(
        rules,
        allowPart(agentTools, agentStep, agentPath, true),
        alsoAllow(agentTools, agentStep, agentPath),
        'agent',
      );
    pushDeny(rules, agentTools, agentStep, agentPath, 'agent');
  }

  // 4. Sandbox: the agent's `sandbox.tools` replaces the global one as a whole;
  //    a field left out falls back to the default (fail closed).
  const sandboxed = request.sandboxed === true;
  if (sandboxed) pushSandbox(rules, agent, agentStep, agentPath, tools.sandbox?.tools);

  // Who may name an explicit-only tool (the gateway tool): the global lists and this run's agent's, never a profile.
  const naming = [
    ...allowPart(tools, 'tools', 'tools', false),
    ...alsoAllow(tools, 'tools', 'tools'),
    ...(agent
      ? [...allowPart(agentTools, agentStep, agentPath, false), ...alsoAllow(agentTools, agentStep, agentPath)]
      : []),
  ];
  return { rules, ...(agent ? { agentId: agent.config.id } : {}), providerKeys, sandboxed, naming };
}

/** `provider/model` (most specific) then `provider`, lower-cased (@tool-search/provider-formats' definition, shared with config). */
export const providerCandidates = sharedProviderCandidates;

/** OpenClaw's default agent id: always known, even when `agents.list` does not name it. */
export const DEFAULT_AGENT_ID = 'main';

/**
 * A run without an agent id uses the global policy, and so does the default agent `main` when `agents.list` does not
 * name it (as OpenClaw does); any other id that names no agent is refused, never given the global policy.
 */
function findAgent(
  list: readonly AgentConfig[] | undefined,
  agentId: string | undefined,
): { config: AgentConfig; index: number } | undefined {
  if (agentId === undefined) return undefined;
  const agents = Array.isArray(list) ? list : [];
  const wanted = String(agentId).toLowerCase();
  const index = agents.findIndex((agent) => typeof agent?.id === 'string' && agent.id.toLowerCase() === wanted);
  if (index >= 0) return { config: agents[index]!, index };
  if (wanted === DEFAULT_AGENT_ID) return undefined;
  throw unknownAgent(
    String(agentId),
    agents.flatMap((agent) => (typeof agent?.id === 'string' ? [agent.id] : [])),
  );
}

function unknownAgent(requested: string, known: readonly string[]): ToolSearchError {
  const suggestions = suggestIds(
    requested,
    known.map((id) => ({ id, name: id }) as ToolDescriptor),
    1,
  ).filter((id) => closeEnough(requested, id));
  const hint = suggestions.length
    ? `; did you mean "${suggestions[0]}"?`
    : known.length
      ? `; known agents: ${known.join(', ')}`
      : '; agents.list is empty';
  return new ToolSearchError(ErrorCode.AGENT_UNKNOWN, `unknown agent id "${requested}"${hint}`, {
    details: { requested, suggestions, known: [...known] },
  });
}

/** Keys equal (case-insensitively) to the most specific candidate that has any. */
function matchingKeys(
  map: { readonly [key: string]: ProviderPolicyConfig } | undefined,
  candidates: readonly string[],
): string[] {
  if (!map || typeof map !== 'object') return [];
  const keys = Object.keys(map);
  for (const candidate of candidates) {
    const found = keys.filter((key) => key.trim().toLowerCase() === candidate);
    if (found.length) return found;
  }
  return [];
}

function profileRule(
  name: string,
  stepPrefix: string,
  path: string,
  layer: PolicyLayer,
  additions: readonly RulePart[] = [],
): PolicyRule {
  const step = `${stepPrefix}profile:${name}`;
  if (!isProfileName(name)) return { step, effect: 'allow', entries: [], path, layer, unknownProfile: name };
  return unionRule([{ step, path, entries: PROFILES[name] }, ...(name === 'full' ? [] : additions)], path, layer);
}

/** One allow rule from parts: a tool is kept when any part keeps it; explain names the part. */
function unionRule(parts: readonly RulePart[], path: string, layer: PolicyLayer): PolicyRule {
  return {
    step: parts.map((part) => part.step).join(' + '),
    effect: 'allow',
    entries: parts.flatMap((part) => part.entries),
    path,
    layer,
    parts,
  };
}

/** `allow: []` is no allowlist (OpenClaw: "if allow is non-empty, everything else is blocked"). */
function allowPart(scope: AllowDeny, step: string, path: string, ignoreWhenUnknown: boolean): RulePart[] {
  return scope.allow?.length
    ? [
        {
          step: `${step}.allow`,
          path: `${path}.allow`,
          entries: scope.allow,
          ...(ignoreWhenUnknown ? { ignoreWhenUnknown } : {}),
        },
      ]
    : [];
}

/** A scope's allowlist without a profile (with its own alsoAllow); `allow` missing or empty adds no rule. */
function pushAllowlist(
  rules: PolicyRule[],
  allow: readonly RulePart[],
  extra: readonly RulePart[],
  layer: PolicyLayer,
): void {
  if (allow.length) rules.push(unionRule([...allow, ...extra], allow[0]!.path, layer));
}

function pushDeny(rules: PolicyRule[], scope: AllowDeny, step: string, path: string, layer: PolicyLayer): void {
  if (scope.deny?.length)
    rules.push({ step: `${step}.deny`, effect: 'deny', entries: scope.deny, path: `${path}.deny`, layer });
}

/** A byProvider scope: its profile and allow form one union that narrows what the global scopes kept. */
function pushScope(
  rules: PolicyRule[],
  scope: ProviderPolicyConfig,
  step: string,
  path: string,
  layer: PolicyLayer,
): void {
  const additions = [
    ...allowPart(scope, step, path, false),
    ...(scope.alsoAllow?.length
      ? [{ step: `${step}.alsoAllow`, path: `${path}.alsoAllow`, entries: scope.alsoAllow }]
      : []),
  ];
  if (scope.profile !== undefined)
    rules.push(profileRule(scope.profile, `${step}.`, `${path}.profile`, layer, additions));
  else if (scope.allow?.length) rules.push(unionRule(additions, `${path}.allow`, layer));
  pushDeny(rules, scope, step, path, layer);
}

function pushSandbox(
  rules: PolicyRule[],
  agent: { config: AgentConfig } | undefined,
  agentStep: string,
  agentPath: string,
  global: AllowDeny | undefined,
): void {
  const own = agent?.config.tools?.sandbox?.tools;
  const chosen =
    own !== undefined
      ? { config: own, step: `${agentStep}.sandbox.tools`, path: `${agentPath}.sandbox.tools` }
      : global !== undefined
        ? { config: global, step: 'tools.sandbox.tools', path: 'tools.sandbox.tools' }
        : undefined;
  const allow = chosen?.config.allow;
  const deny = chosen?.config.deny;
  const defaults = { step: 'sandbox.defaults', path: 'sandbox.defaults' };
  const allowFrom = allow !== undefined ? chosen! : defaults;
  const denyFrom = deny !== undefined ? chosen! : defaults;
  const sandboxAlso = chosen?.config.alsoAllow?.length
    ? [{ step: `${chosen.step}.alsoAllow`, path: `${chosen.path}.alsoAllow`, entries: chosen.config.alsoAllow }]
    : [];
  const sandboxAllow = allowPart({ allow: allow ?? SANDBOX_DEFAULTS.allow }, allowFrom.step, allowFrom.path, false);
  if (sandboxAllow.length)
    rules.push(unionRule([...sandboxAllow, ...sandboxAlso], `${allowFrom.path}.allow`, 'sandbox'));
  pushDeny(rules, { deny: deny ?? SANDBOX_DEFAULTS.deny }, denyFrom.step, denyFrom.path, 'sandbox');
}

/** A suggestion only when it is plausibly a typo of the request (edit distance at most a third of its length, min 2). */
function closeEnough(requested: string, candidate: string): boolean {
  return (
    editDistance(requested.toLowerCase(), candidate.toLowerCase()) <= Math.max(2, Math.floor(requested.length / 3))
  );
}
