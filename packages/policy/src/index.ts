// The public surface of @tool-search/policy. Every export here is public API:
// named exports only, no wildcards.
export { policyPlugin, POLICY_PLUGIN } from './plugin.js';
export { resolvePolicy, providerCandidates } from './resolve.js';
export { evaluatePolicy } from './evaluate.js';
export type { EvaluateOptions } from './evaluate.js';
// The matcher and the groups live in @tool-search/tool-match (approvals matches the same way); re-exported here.
export {
  matchesEntry,
  firstMatch,
  CORE_GROUPS,
  SOURCE_GROUPS,
  expandGroups,
  isReservedGroup,
} from '@tool-search/tool-match';
export type { MatchableTool, MatchEffect } from '@tool-search/tool-match';
export { PROFILES, SANDBOX_DEFAULTS, isProfileName } from './groups.js';
export { parsePolicyOptions, policyOptionsSchema } from './options.js';
export type {
  AgentConfig,
  AgentsConfig,
  AgentToolsConfig,
  AllowDeny,
  PolicyDiagnostic,
  PolicyEvaluation,
  PolicyLayer,
  PolicyOptions,
  PolicyRule,
  ProfileName,
  ProviderPolicyConfig,
  ResolvedPolicy,
  RulePart,
  SandboxPolicyConfig,
  ToolsPolicyConfig,
} from './types.js';
export { PolicyErrors } from './errors.js';
