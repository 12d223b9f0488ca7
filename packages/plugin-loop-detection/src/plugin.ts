/**
 * Loop detection for tool calls. `beforeToolCall` judges the call against the
 * session's history (warn, block, or block and stop the run); `afterToolCall`
 * records every finished call with a hash of its result, whoever decided it.
 * Every path (direct, tool_call, code, directory) goes through `run.call`, so
 * this plugin sees them all alike. History lives in a `StateStore` (in-process
 * by default, Redis behind replicas); when it cannot be read the call is
 * blocked (fail closed), when a record cannot be written it is logged.
 */
import {
  STAGE,
  ToolSearchError,
  type CallOrigin,
  type KernelPlugin,
  type ToolCall,
  type ToolCallOutcome,
} from '@tool-search/kernel';
import { MemoryStateStore, type StateStore, StateErrors } from '@tool-search/state';
import {
  checkLoopDetectionSettings,
  resolveLoopDetection,
  type LoopDetectionConfig,
  type LoopDetectionSettings,
} from './config.js';
import { detectLoop, type LoopDetector, type LoopLevel } from './detect.js';
import { hashArgs, hashOutcome } from './hash.js';
import { describeFinding } from './messages.js';
import { isPollLike, type PollLikeFn } from './poll.js';
import { DEFAULT_LOOP_STATE_TTL_MS, LoopState } from './sessions.js';

export const PLUGIN_NAME = '@tool-search/plugin-loop-detection';

export interface LoopDetectionOptions extends LoopDetectionSettings {
  /** Marks more tools as poll-like (besides `meta.pollLike` and the name/`action` words). */
  readonly pollLike?: PollLikeFn;
  /** Called for every finding (warning, block, stop), after it is logged and recorded. */
  readonly onWarning?: (warning: LoopWarning) => void;
  /** Where history and findings live: share one (Redis) between replicas. Default: a store of this plugin's own, in-process. */
  readonly state?: StateStore;
  /** How long a session's history and findings live after its last call (default one day). */
  readonly stateTtlMs?: number;
}

declare module '@tool-search/kernel' {
  interface RunEventMap {
    /** A loop-detection finding; telemetry writes it to the session log. */
    'loop-detection': { readonly type: 'loop-detection'; readonly warning: LoopWarning };
  }
}

/** A finding, as logged, recorded per session and passed to `onWarning`. */
export interface LoopWarning {
  readonly sessionId: string;
  readonly runId: string;
  readonly agentId?: string;
  readonly callId: string;
  readonly toolId: string;
  readonly name: string;
  readonly origin: CallOrigin;
  readonly detector: LoopDetector;
  /** `warning`: the call ran. `critical`: it was blocked. `stop`: it was blocked and the run stopped. */
  readonly level: LoopLevel;
  readonly count: number;
  readonly message: string;
  readonly pairedName?: string;
}

export interface LoopDetectionPlugin extends KernelPlugin {
  /** Findings recorded for a session, oldest first (the last 100). */
  getWarnings(sessionId: string): Promise<readonly LoopWarning[]>;
  /** Forgets one session's history and findings, or every session's (the last 1000 seen). */
  clear(sessionId?: string): Promise<void>;
}

/** Throws `CONFIG_INVALID` (with `path` and `rule`) when the settings are invalid. */
export function loopDetectionPlugin(options: LoopDetectionOptions = {}): LoopDetectionPlugin {
  checkLoopDetectionSettings(options);
  const store = new LoopState(options.state ?? new MemoryStateStore(), options.stateTtlMs ?? DEFAULT_LOOP_STATE_TTL_MS);
  const configFor = agentConfigs(options).for;

  return {
    name: PLUGIN_NAME,
    getWarnings: (sessionId) => store.warnings(sessionId),
    clear: (sessionId) => store.clear(sessionId),
    apply({ hooks, logger }) {
      // Off for every agent (the default): no taps, so calls do not pay for an async guard that does nothing.
      if (!enabledAnywhere(options, configFor)) return;
      // STAGE.GUARD: before approvals (nobody is asked about a runaway call); a call others block is still recorded below.
      hooks.beforeToolCall.tapPromise({ stage: STAGE.GUARD }, async (call, ctx) => {
        const config = configFor(ctx.run.request.agentId);
        if (!config.enabled) return undefined;
        const pending = {
          key: keyOf(call),
          toolId: call.tool.id,
          name: call.tool.name,
          pollLike: isPollLike(call.tool, call.args, options.pollLike),
        };
        let history;
        try {
          history = await store.history(ctx.run.sessionId);
        } catch (error) {
          // Without the history nobody can say this is not a loop: fail closed.
          const code = codeOf(error);
          logger.error(`${call.tool.name}: blocked, loop history unreadable (${code})`, {
            callId: call.callId,
            sessionId: ctx.run.sessionId,
          });
          return { action: 'block', reason: unavailable(call.tool.name, code) };
        }
        const finding = detectLoop(history, pending, config);
        if (!finding) return undefined;
        const message = describeFinding(finding, call.tool.name);
        const agentId = ctx.run.request.agentId;
        const warning: LoopWarning = {
          sessionId: ctx.run.sessionId,
          runId: ctx.run.runId,
          ...(agentId !== undefined ? { agentId } : {}),
          callId: call.callId,
          toolId: call.tool.id,
          name: call.tool.name,
          origin: call.origin,
          detector: finding.detector,
          level: finding.level,
          count: finding.count,
          message,
          ...(finding.pairedName ? { pairedName: finding.pairedName } : {}),
        };
        logger[finding.level === 'stop' ? 'error' : 'warn'](message, { ...warning });
        await store
          .warn(ctx.run.sessionId, warning)
          .catch((error: unknown) =>
            logger.error(`loop finding not recorded (${codeOf(error)})`, { callId: call.callId }),
          );
        ctx.emit({ type: 'loop-detection', warning });
        options.onWarning?.(warning);
        if (finding.level === 'warning') return undefined;
        return { action: 'block', reason: message, ...(finding.level === 'stop' ? { stopRun: true } : {}) };
      });

      hooks.afterToolCall.tapPromise(async (call, outcome, ctx) => {
        const config = configFor(ctx.run.request.agentId);
        if (!config.enabled) return;
        const key = keyOf(call);
        try {
          const resultHash = await resultHashOf(outcome, key, () => store.history(ctx.run.sessionId));
          await store.record(
            ctx.run.sessionId,
            { key, toolId: call.tool.id, name: call.tool.name, resultHash },
            config.historySize,
          );
        } catch (error) {
          // The call already ran; losing one record only weakens detection until the store answers again.
          logger.error(`call not recorded in loop history (${codeOf(error)})`, {
            callId: call.callId,
            sessionId: ctx.run.sessionId,
          });
        }
      });
    },
  };
}

/**
 * The resolved settings per agent, cached. Keyed by configured agents only: an agent id the config does not list
 * resolves like none, so ids a client makes up share one entry and the cache stays at (configured agents + 1).
 */
export function agentConfigs(options: LoopDetectionOptions): {
  for: (agentId: string | undefined) => LoopDetectionConfig;
  readonly size: number;
} {
  const configs = new Map<string | undefined, LoopDetectionConfig>();
  const configured = new Set((options.agents?.list ?? []).map((agent) => agent.id));
  return {
    for(agentId) {
      const known = agentId !== undefined && configured.has(agentId) ? agentId : undefined;
      let config = configs.get(known);
      if (!config) configs.set(known, (config = resolveLoopDetection(options, known)));
      return config;
    },
    get size() {
      return configs.size;
    },
  };
}

function enabledAnywhere(
  options: LoopDetectionOptions,
  configFor: (agentId: string | undefined) => LoopDetectionConfig,
): boolean {
  return configFor(undefined).enabled || (options.agents?.list ?? []).some((agent) => configFor(agent.id).enabled);
}

function keyOf(call: ToolCall): string {
  return `${call.tool.id}\u0000${hashArgs(call.args)}`;
}

/** A call this plugin blocked changed nothing: it repeats the newest result of the same call. */
async function resultHashOf(
  outcome: ToolCallOutcome,
  key: string,
  load: () => Promise<readonly { key: string; resultHash: string }[]>,
): Promise<string> {
  if (outcome.status === 'blocked' && outcome.by === PLUGIN_NAME) {
    const history = await load();
    for (let i = history.length - 1; i >= 0; i--) if (history[i]!.key === key) return history[i]!.resultHash;
  }
  return hashOutcome(outcome);
}

function codeOf(error: unknown): string {
  return ToolSearchError.isInstance(error) ? error.code : StateErrors.STATE_UNAVAILABLE;
}

function unavailable(name: string, code: string): string {
  return (
    `Blocked by loop detection (${code}): the call history of this session could not be read, so ${name} did not run. ` +
    'This is a temporary outage of the shared state store; try again shortly.'
  );
}
