/**
 * `sessionsPlugin`: the session tools, and the recorder that keeps every
 * gateway turn's messages and tool calls in the host's store (from the
 * gateway's `turn-message` run events and `afterToolCall`). Composed only
 * where a gateway runs turns: outside one, no host, so no tools.
 */
import type { KernelPlugin, RunInfo, ToolCallOutcome } from '@tool-search/kernel';
import type { SessionHost, SessionPatch, SessionRecord, TranscriptEntry } from '@tool-search/sessions';
import {
  checkPingPong,
  checkSandboxVisibility,
  checkVisibility,
  defaultAgentId,
  DEFAULT_SPAWN_LIMITS,
  type AgentEntry,
  type SharedCounter,
  type SpawnLimits,
} from './access.js';
import { sessionTools } from './tools.js';
import { checkAttachmentLimits } from './attachments.js';
import { errorMessage } from '@tool-search/kernel';

export const SESSIONS_PLUGIN_NAME = '@tool-search/plugin-sessions';
/** Longest tool-result text kept on a transcript tool line. */
const TOOL_TEXT_CHARS = 2_000;

export interface SessionsPluginOptions {
  readonly host: SessionHost;
  /** `tools.sessions.visibility`: self | tree (default) | all. */
  readonly visibility?: unknown;
  /** `agents.list` (id, default, name, subagents.allowAgents). */
  readonly agents?: readonly AgentEntry[];
  /** `agents.defaults.subagents.maxSpawnDepth` (default 1: sub-agents do not spawn) and `maxChildrenPerAgent` (default 5). */
  readonly limits?: Partial<SpawnLimits>;
  readonly now?: () => number;
  /** More fields for `session_status`, computed by the composer (the preset adds the telemetry counters). */
  readonly statusFields?: (record: SessionRecord) => Promise<Record<string, unknown>>;
  /**
   * `session.agentToAgent.maxPingPongTurns` (0–5): after a `sessions_send` reply, requester and target reply back up to
   * this many turns (`REPLY_SKIP` ends it), then the target's announce (`ANNOUNCE_SKIP`: none). Absent: no loop.
   */
  readonly maxPingPongTurns?: unknown;
  /** Where `sessions_spawn` attachments go (`<workspace>/.openclaw/attachments/<uuid>/`); default the working folder. */
  readonly workspace?: string;
  /** `tools.sessions_spawn.attachments`: `enabled` (default false), `maxFiles` 50, `maxFileBytes` 1 MiB, `maxTotalBytes` 5 MiB. */
  readonly attachments?: unknown;
  /** `agents.defaults.sandbox.sessionToolsVisibility`: `spawned` (default: a sandboxed run sees at most its tree) or `all`. */
  readonly sandboxVisibility?: unknown;
  /** The replicas' shared state store (`@tool-search/state`): `maxChildrenPerAgent` is then held there atomically too. */
  readonly state?: SharedCounter;
}

export function sessionsPlugin(options: SessionsPluginOptions): KernelPlugin {
  const visibility = checkVisibility(options.visibility);
  const agents = options.agents ?? [];
  const { host } = options;
  const now = options.now ?? Date.now;
  const limits = { ...DEFAULT_SPAWN_LIMITS, ...options.limits };
  const sandboxVisibility = checkSandboxVisibility(options.sandboxVisibility);
  const tools = sessionTools({
    host,
    visibility,
    agents,
    limits,
    sandboxVisibility,
    attachments: checkAttachmentLimits(options.attachments),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.state ? { shared: options.state } : {}),
    ...(options.maxPingPongTurns !== undefined
      ? { agentToAgent: { maxPingPongTurns: checkPingPong(options.maxPingPongTurns) } }
      : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.statusFields ? { statusFields: options.statusFields } : {}),
  });
  return {
    name: SESSIONS_PLUGIN_NAME,
    apply({ hooks, logger }) {
      // Writes go one after another, so a store that is not in-process keeps their order.
      let writes: Promise<unknown> = Promise.resolve();
      const record = (run: RunInfo, entry: TranscriptEntry) => {
        const patch: SessionPatch = {
          agentId: run.request.agentId ?? defaultAgentId(agents),
          ...(run.request.model ? { model: run.request.model } : {}),
        };
        writes = writes
          .then(async () => {
            await host.store.upsert(run.sessionId, patch);
            await host.store.append(run.sessionId, entry);
          })
          .catch((error: unknown) =>
            logger.warn(`session transcript not recorded: ${errorMessage(error)}`, { cause: error }),
          );
      };
      hooks.listTools.tap((sink) => sink.add(tools));
      hooks.runEvent.tap((event, run) => {
        // The gateway's event (declared in @tool-search/gateway, which this plugin does not import).
        if ((event as { type: string }).type !== 'turn-message') return;
        const turn = event as unknown as { role: string; content: string | null; toolCalls?: readonly string[] };
        if (turn.role !== 'user' && turn.role !== 'assistant') return;
        record(run, {
          role: turn.role,
          content: turn.content,
          at: now(),
          ...(turn.toolCalls?.length ? { toolCalls: turn.toolCalls } : {}),
        });
      });
      hooks.afterToolCall.tap((call, outcome, ctx) => {
        record(ctx.run, {
          role: 'tool',
          content: outcomeText(outcome),
          at: now(),
          tool: { name: call.tool.name, status: outcome.status },
        });
      });
    },
  };
}

function outcomeText(outcome: ToolCallOutcome): string | null {
  const result = 'result' in outcome ? outcome.result : undefined;
  const text = result?.content?.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const shown =
    text ?? (outcome.status === 'blocked' ? outcome.reason : outcome.status === 'error' ? outcome.error.message : null);
  return shown && shown.length > TOOL_TEXT_CHARS ? `${shown.slice(0, TOOL_TEXT_CHARS)}…` : shown;
}
