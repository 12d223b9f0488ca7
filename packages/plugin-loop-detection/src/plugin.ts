/**
 * Loop detection for tool calls. `beforeToolCall` judges the call against the
 * session's history (warn, block, or block and stop the run); `afterToolCall`
 * records every finished call with a hash of its result, whoever decided it.
 * Every path (direct, tool_call, code, directory) goes through `run.call`, so
 * this plugin sees them all alike.
 */
import { STAGE, type CallOrigin, type KernelPlugin, type ToolCall, type ToolCallOutcome } from '@tool-search/kernel';
import { checkLoopDetectionSettings, resolveLoopDetection, type LoopDetectionConfig, type LoopDetectionSettings } from './config.js';
import { detectLoop, type LoopDetector, type LoopLevel } from './detect.js';
import { hashArgs, hashOutcome } from './hash.js';
import { describeFinding } from './messages.js';
import { isPollLike, type PollLikeFn } from './poll.js';
import { SessionStore } from './sessions.js';

export const PLUGIN_NAME = '@tool-search/plugin-loop-detection';

export interface LoopDetectionOptions extends LoopDetectionSettings {
  /** Marks more tools as poll-like (besides `meta.pollLike` and the name/`action` words). */
  readonly pollLike?: PollLikeFn;
  /** Called for every finding (warning, block, stop), after it is logged and recorded. */
  readonly onWarning?: (warning: LoopWarning) => void;
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
  getWarnings(sessionId: string): readonly LoopWarning[];
  /** Forgets one session's history and findings, or every session's. */
  clear(sessionId?: string): void;
}

/** Throws `CONFIG_INVALID` (with `path` and `rule`) when the settings are invalid. */
export function loopDetectionPlugin(options: LoopDetectionOptions = {}): LoopDetectionPlugin {
  checkLoopDetectionSettings(options);
  const store = new SessionStore();
  const configs = new Map<string | undefined, LoopDetectionConfig>();
  const configFor = (agentId: string | undefined) => {
    let config = configs.get(agentId);
    if (!config) configs.set(agentId, (config = resolveLoopDetection(options, agentId)));
    return config;
  };

  return {
    name: PLUGIN_NAME,
    getWarnings: (sessionId) => store.warnings(sessionId),
    clear: (sessionId) => store.clear(sessionId),
    apply({ hooks, logger }) {
      // STAGE.GUARD: before approvals (nobody is asked about a runaway call); a call others block is still recorded below.
      hooks.beforeToolCall.tap({ stage: STAGE.GUARD }, (call, ctx) => {
        const config = configFor(ctx.run.request.agentId);
        if (!config.enabled) return undefined;
        const pending = { key: keyOf(call), toolId: call.tool.id, name: call.tool.name, pollLike: isPollLike(call.tool, call.args, options.pollLike) };
        const finding = detectLoop(store.history(ctx.run.sessionId), pending, config);
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
        store.warn(ctx.run.sessionId, warning);
        ctx.emit({ type: 'loop-detection', warning });
        options.onWarning?.(warning);
        if (finding.level === 'warning') return undefined;
        return { action: 'block', reason: message, ...(finding.level === 'stop' ? { stopRun: true } : {}) };
      });

      hooks.afterToolCall.tap((call, outcome, ctx) => {
        const config = configFor(ctx.run.request.agentId);
        if (!config.enabled) return;
        const history = store.history(ctx.run.sessionId);
        const key = keyOf(call);
        store.record(ctx.run.sessionId, { key, toolId: call.tool.id, name: call.tool.name, resultHash: resultHashOf(outcome, key, history) }, config.historySize);
      });
    },
  };
}

function keyOf(call: ToolCall): string {
  return `${call.tool.id}\u0000${hashArgs(call.args)}`;
}

/** A call this plugin blocked changed nothing: it repeats the newest result of the same call. */
function resultHashOf(outcome: ToolCallOutcome, key: string, history: readonly { key: string; resultHash: string }[]): string {
  if (outcome.status === 'blocked' && outcome.by === PLUGIN_NAME) {
    for (let i = history.length - 1; i >= 0; i--) if (history[i]!.key === key) return history[i]!.resultHash;
  }
  return hashOutcome(outcome);
}
