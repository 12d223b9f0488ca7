/**
 * `tools.loopDetection` (OpenClaw's shape): the schema, the defaults and the
 * per-agent merge. Options are checked once, when the plugin is created, so a
 * bad threshold fails before any run instead of in the middle of one.
 */
import { ConfigError, type JsonSchema, valueIssues } from '@tool-search/kernel';
import { loopDetectionConfigSchema } from './options.js';

export interface LoopDetectors {
  /** Same tool, same arguments, same result, again and again (tools that are not poll-like). */
  readonly genericRepeat: boolean;
  /** A poll-like call (status, poll, log) that keeps returning the same output. */
  readonly knownPollNoProgress: boolean;
  /** Two calls alternating A/B/A/B while neither result changes. */
  readonly pingPong: boolean;
}

/** The effective configuration for one agent. */
export interface LoopDetectionConfig {
  readonly enabled: boolean;
  /** Calls in a loop before a warning is recorded (the call proceeds). */
  readonly warningThreshold: number;
  /** Calls in a loop before the call is blocked. */
  readonly criticalThreshold: number;
  /** Calls in a loop before the run is stopped (RUN_STOPPED on every later call). */
  readonly globalCircuitBreakerThreshold: number;
  /** Recent calls kept per session for the detectors. */
  readonly historySize: number;
  readonly detectors: LoopDetectors;
}

/** What a config file may say: every field optional, detectors merged per key. */
export type LoopDetectionConfigInput = Partial<Omit<LoopDetectionConfig, 'detectors'>> & {
  readonly detectors?: Partial<LoopDetectors>;
};

export interface LoopDetectionAgent {
  readonly id: string;
  readonly tools?: { readonly loopDetection?: LoopDetectionConfigInput; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** The parts of the Tool Search config this plugin reads (the rest is ignored). */
export interface LoopDetectionSettings {
  readonly tools?: { readonly loopDetection?: LoopDetectionConfigInput; readonly [key: string]: unknown };
  readonly agents?: { readonly list?: readonly LoopDetectionAgent[]; readonly [key: string]: unknown };
}

export const DEFAULT_LOOP_DETECTION: LoopDetectionConfig = Object.freeze({
  enabled: false,
  warningThreshold: 10,
  criticalThreshold: 20,
  globalCircuitBreakerThreshold: 30,
  historySize: 30,
  detectors: Object.freeze({ genericRepeat: true, knownPollNoProgress: true, pingPong: true }),
});

export { loopDetectionConfigSchema } from './options.js';

/** JSON Schema of the settings the plugin reads; other keys of `tools`, `agents` and agents pass through. */
export const loopDetectionSettingsSchema: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    tools: { type: 'object', properties: { loopDetection: loopDetectionConfigSchema } },
    agents: {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', minLength: 1 },
              tools: { type: 'object', properties: { loopDetection: loopDetectionConfigSchema } },
            },
          },
        },
      },
    },
  },
});

/**
 * The effective config for `agentId`: defaults, then `tools.loopDetection`,
 * then the agent's `tools.loopDetection`, field by field (detectors per key).
 * Throws `CONFIG_INVALID` when the thresholds are not ordered
 * warning < critical < circuit breaker.
 */
export function resolveLoopDetection(settings: LoopDetectionSettings, agentId?: string): LoopDetectionConfig {
  const global = settings.tools?.loopDetection;
  const agentIndex =
    agentId === undefined ? -1 : (settings.agents?.list ?? []).findIndex((agent) => agent.id === agentId);
  const agent = agentIndex >= 0 ? settings.agents?.list?.[agentIndex]?.tools?.loopDetection : undefined;
  const resolved = merge(merge(DEFAULT_LOOP_DETECTION, global), agent);
  const path = agent ? `agents.list.${agentIndex}.tools.loopDetection` : 'tools.loopDetection';
  if (resolved.warningThreshold >= resolved.criticalThreshold) {
    throw new ConfigError(
      `${path}.criticalThreshold`,
      'order',
      `${path}: criticalThreshold (${resolved.criticalThreshold}) must be greater than warningThreshold (${resolved.warningThreshold})`,
    );
  }
  if (resolved.criticalThreshold >= resolved.globalCircuitBreakerThreshold) {
    throw new ConfigError(
      `${path}.globalCircuitBreakerThreshold`,
      'order',
      `${path}: globalCircuitBreakerThreshold (${resolved.globalCircuitBreakerThreshold}) must be greater than criticalThreshold (${resolved.criticalThreshold})`,
    );
  }
  return resolved;
}

/** Checks the settings against the schema and every agent's thresholds; throws `CONFIG_INVALID`. */
export function checkLoopDetectionSettings(settings: LoopDetectionSettings): void {
  const [issue] = valueIssues(loopDetectionSettingsSchema, settings);
  if (issue) {
    const path = issue.path.split('/').filter(Boolean).join('.');
    throw new ConfigError(path, issue.rule, `${path || 'loop detection settings'}: ${issue.message}`);
  }
  resolveLoopDetection(settings);
  for (const agent of settings.agents?.list ?? []) resolveLoopDetection(settings, agent.id);
}

function merge(base: LoopDetectionConfig, input: LoopDetectionConfigInput | undefined): LoopDetectionConfig {
  if (!input) return base;
  const { detectors, ...fields } = input;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const definedDetectors = Object.fromEntries(
    Object.entries(detectors ?? {}).filter(([, value]) => value !== undefined),
  );
  return Object.freeze({ ...base, ...defined, detectors: Object.freeze({ ...base.detectors, ...definedDetectors }) });
}
