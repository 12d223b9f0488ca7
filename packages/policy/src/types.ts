/**
 * The `tools` and `agents` sections of an OpenClaw-shaped `tool-search.json`
 * that this package reads, and the resolved form of a policy. Keys this
 * package does not own (`tools.exec`, `agents.list[].workspace`, …) are
 * accepted and ignored.
 */
import type { ErrorCode, PolicyStep } from '@tool-search/kernel';
import type { PolicyErrors } from './errors.js';

export type ProfileName = 'minimal' | 'coding' | 'messaging' | 'full';

/** An allow/deny pair. `allow: []` means no allowlist; `deny` always wins. */
export interface AllowDeny {
  readonly allow?: readonly string[];
  /** OpenClaw's additive allowlist: extends this scope's profile and `allow` instead of replacing them. */
  readonly alsoAllow?: readonly string[];
  readonly deny?: readonly string[];
}

/** `tools.byProvider[key]`: narrows for one `provider` or `provider/model`. */
export interface ProviderPolicyConfig extends AllowDeny {
  readonly profile?: ProfileName;
}

/** `tools.sandbox` (only `tools.sandbox.tools` is read here). */
export interface SandboxPolicyConfig {
  readonly tools?: AllowDeny;
  readonly [key: string]: unknown;
}

/** `tools`: global policy. */
export interface ToolsPolicyConfig extends AllowDeny {
  readonly profile?: ProfileName;
  readonly byProvider?: { readonly [providerOrModel: string]: ProviderPolicyConfig };
  readonly sandbox?: SandboxPolicyConfig;
  readonly [key: string]: unknown;
}

/** `agents.list[].tools`: one agent's policy, applied after the global one. */
export interface AgentToolsConfig extends AllowDeny {
  /** Replaces `tools.profile` for this agent. */
  readonly profile?: ProfileName;
  readonly byProvider?: { readonly [providerOrModel: string]: ProviderPolicyConfig };
  /** `sandbox.tools` replaces `tools.sandbox.tools` as a whole for this agent. */
  readonly sandbox?: SandboxPolicyConfig;
  readonly [key: string]: unknown;
}

export interface AgentConfig {
  readonly id: string;
  readonly tools?: AgentToolsConfig;
  readonly [key: string]: unknown;
}

/** `agents` (only `agents.list[].id` and `.tools` are read here). */
export interface AgentsConfig {
  readonly list?: readonly AgentConfig[];
  readonly [key: string]: unknown;
}

export interface PolicyOptions {
  readonly tools?: ToolsPolicyConfig;
  readonly agents?: AgentsConfig;
}

/** Which layer a rule belongs to (the sandbox layer reports dropped plugin/MCP tools). */
export type PolicyLayer = 'profile' | 'byProvider' | 'tools' | 'agent' | 'sandbox';

/** One source of entries in an allow rule (`profile:coding`, `tools.allow`, …); explain names the part that kept a tool. */
export interface RulePart {
  readonly step: string;
  readonly path: string;
  readonly entries: readonly string[];
  /** An `allow` list of plain names matching no listed tool is ignored with a warning (the profile part never is). */
  readonly ignoreWhenUnknown?: boolean;
}

/** One step of a resolved policy: keep what an allow entry matches, or drop what a deny entry matches. */
export interface PolicyRule {
  /** Step name shown by `run.explain` (`profile:coding`, `tools.deny`, …). */
  readonly step: string;
  readonly effect: 'allow' | 'deny';
  readonly entries: readonly string[];
  /** Where the entries came from in the config (`agents.list[0].tools.allow`). */
  readonly path: string;
  readonly layer: PolicyLayer;
  /** Allow rules: the union of these parts (a profile and the lists that add to it). */
  readonly parts?: readonly RulePart[];
  /** Set when the profile name is not known: the step drops every tool (fail closed). */
  readonly unknownProfile?: string;
}

/** The ordered rules that apply to one run; each only narrows what the previous ones kept. */
export interface ResolvedPolicy {
  readonly rules: readonly PolicyRule[];
  /** The `agents.list[]` entry that applied, if any. */
  readonly agentId?: string;
  /** The `byProvider` keys that applied (global, then agent). */
  readonly providerKeys: readonly string[];
  readonly sandboxed: boolean;
  /**
   * The allow lists that may name an explicit-only tool (`ToolMeta.explicitOnly`) for this run: `tools.allow` /
   * `alsoAllow` and the run's agent's. Missing: none does (such a tool is dropped).
   */
  readonly naming?: readonly RulePart[];
}

/** What `evaluatePolicy` decided for a set of tools. */
export interface PolicyEvaluation<T> {
  readonly kept: readonly T[];
  /** Ordered steps per tool id, up to and including the step that dropped it. */
  readonly traces: ReadonlyMap<string, readonly PolicyStep[]>;
  /** The step that dropped each dropped tool. */
  readonly dropped: ReadonlyMap<string, PolicyStep>;
  readonly diagnostics: readonly PolicyDiagnostic[];
}

export interface PolicyDiagnostic {
  readonly code:
    | (typeof PolicyErrors)[keyof typeof PolicyErrors]
    | typeof ErrorCode.POLICY_DENIED
    | typeof ErrorCode.CONFIG_INVALID;
  readonly level: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}
