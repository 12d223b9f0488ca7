// The public surface of @tool-search/policy. Every export here is public API:
// named exports only, no wildcards.
export { policyPlugin, POLICY_PLUGIN } from './plugin.js';
export { resolvePolicy, providerCandidates } from './resolve.js';
export { evaluatePolicy } from './evaluate.js';
export { matchesEntry, firstMatch } from './match.js';
export type { MatchableTool, MatchEffect } from './match.js';
export { CORE_GROUPS, SOURCE_GROUPS, PROFILES, SANDBOX_DEFAULTS, expandGroups, isProfileName, isReservedGroup } from './groups.js';
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
  SandboxPolicyConfig,
  ToolsPolicyConfig,
} from './types.js';
