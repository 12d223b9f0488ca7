/**
 * Whether the config sandboxes a run: OpenClaw's `agents.list[].sandbox.mode`, else `agents.defaults.sandbox.mode`.
 * `off` (the default) sandboxes nothing, `all` every session, `non-main` every session but the agent's main one.
 * A run without an agent id is the default agent's (`default: true`, else the first listed, else `main`), as the
 * gateway and the session tools take it: leaving `x-agent-id` out never leaves a sandbox. A front end marks such a
 * run `sandboxed`, so the sandbox policy step (`tools.sandbox.tools`), the session tools' clamp
 * (`sessionToolsVisibility`) and `elevated` apply to it; a front end's own flag (`--sandboxed`) can add a sandbox,
 * never take one away.
 */
import type { SandboxMode, ToolSearchConfig } from './types.js';

export const SANDBOX_MODES = ['off', 'non-main', 'all'] as const;
/** The default agent's main session id; another agent's is `main:<agentId>`, behind API keys `…@<keyId>`. */
export const MAIN_SESSION_ID = 'main';
/** A main session's id, as `@tool-search/sessions`' `mainSessionId` builds it (this package does not import that one). */
const MAIN_ID = /^main(?::([^@]+))?(?:@.+)?$/;

export interface SandboxParty {
  readonly agentId?: string;
  /** The run's session; a run without one is not the main session. */
  readonly sessionId?: string;
}

export interface ResolvedSandboxFor {
  readonly sandboxed: boolean;
  readonly mode: SandboxMode;
  /** The config path that set the mode (absent: the default, `off`). */
  readonly source?: string;
}

export function resolveSandboxFor(config: ToolSearchConfig, party: SandboxParty = {}): ResolvedSandboxFor {
  const agentId = (party.agentId ?? defaultAgentOf(config)).toLowerCase();
  const { mode, source } = sandboxModeFor(config, agentId);
  const sandboxed = mode === 'all' || (mode === 'non-main' && !isMainSession(config, agentId, party.sessionId));
  return { sandboxed, mode, ...(source ? { source } : {}) };
}

/** Whether `sessionId` is the main session of `agentId` (another agent's main session is not this one's). */
function isMainSession(config: ToolSearchConfig, agentId: string, sessionId: string | undefined): boolean {
  const match = sessionId === undefined ? null : MAIN_ID.exec(sessionId);
  if (!match) return false;
  return (match[1] ?? defaultAgentOf(config)).toLowerCase() === agentId;
}

/** The agent a request without an agent id runs as: `agents.list`'s `default`, else its first, else `main`. */
export function defaultAgentOf(config: ToolSearchConfig): string {
  const list = config.agents?.list ?? [];
  return list.find((agent) => agent.default)?.id ?? list[0]?.id ?? 'main';
}

/** Whether any agent (or the defaults) may be sandboxed: when none is, a front end need not look further. */
export function sandboxConfigured(config: ToolSearchConfig): boolean {
  const modes = [config.agents?.defaults?.sandbox, ...(config.agents?.list ?? []).map((agent) => agent.sandbox)];
  return modes.some((sandbox) => sandbox?.mode !== undefined && sandbox.mode !== 'off');
}

function sandboxModeFor(config: ToolSearchConfig, agentId: string): { mode: SandboxMode; source?: string } {
  const list = config.agents?.list ?? [];
  const index = list.findIndex((agent) => agent.id.toLowerCase() === agentId);
  const own = index >= 0 ? list[index]!.sandbox?.mode : undefined;
  if (own !== undefined) return { mode: checked(own), source: `agents.list[${index}].sandbox.mode` };
  const fallback = config.agents?.defaults?.sandbox?.mode;
  if (fallback !== undefined) return { mode: checked(fallback), source: 'agents.defaults.sandbox.mode' };
  return { mode: 'off' };
}

/** A mode the schema did not check (a config built in code): anything but `off` / `non-main` sandboxes (fail closed). */
function checked(mode: unknown): SandboxMode {
  return mode === 'off' || mode === 'non-main' ? mode : 'all';
}
