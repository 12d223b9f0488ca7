/**
 * Which runs are sandboxed, for every front end: the config's `sandbox.mode` for the run's agent and session
 * (`resolveSandboxFor` in `@tool-search/config`). In a gateway also every session where a sandboxed run was before
 * (whichever agent drives it next) and every session a sandboxed session started (`sessions_spawn`, `sandbox:
 * "require"` or not, and the cron sessions it made: the record's `parentId`), so nothing a sandboxed agent sets going
 * runs outside the sandbox (an HTTP client naming it, `sessions_send`, a cron run). A sandboxed run gets
 * `tools.sandbox.tools`, the session tools' clamp (`sessionToolsVisibility`) and `elevated`. */
import { resolveSandboxFor, sandboxConfigured, type SandboxParty, type ToolSearchConfig } from '@tool-search/config';
import type { Kernel } from '@tool-search/kernel';
import type { SessionStore } from '@tool-search/sessions';
import type { StateStore } from '@tool-search/state';

/** Sessions started by sessions started by …: spawns stop at `maxSpawnDepth` (≤ 5), so a longer chain is not theirs. */
const MAX_ANCESTORS = 64;
/** How long a session stays marked sandboxed after its last sandboxed turn (a cron job may fire weeks later). */
const MARK_TTL_MS = 90 * 24 * 60 * 60_000;

/** The request field that marks a run of `party` sandboxed by the config (`{}` when it is not). */
export function sandboxFieldOf(config: ToolSearchConfig, party: SandboxParty): { sandboxed?: true } {
  return resolveSandboxFor(config, party).sandboxed ? { sandboxed: true } : {};
}

/**
 * `kernel` with every run marked as `sandboxFieldOf` says for that run's own request: for a front end that learns the
 * party only when the run opens (`serve mcp --http` takes the agent from the caller's key, the session from MCP).
 */
export function sandboxingKernel(kernel: Kernel, config: ToolSearchConfig): Kernel {
  if (!sandboxConfigured(config)) return kernel;
  return {
    use: (plugin) => kernel.use(plugin),
    createRun: (request = {}, options) => kernel.createRun({ ...request, ...sandboxFieldOf(config, request) }, options),
    get plugins() {
      return kernel.plugins;
    },
    get commands() {
      return kernel.commands;
    },
    get sealed() {
      return kernel.sealed;
    },
    close: () => kernel.close(),
  };
}

/**
 * The gateway's `sandboxFor`: a run is sandboxed when the config sandboxes its agent in this session, when a sandboxed
 * run was here before (`marks`: a session once sandboxed stays so, whichever agent drives it next, as a cron job's
 * turn in its creator's session may), or when a session that started this one (transitively) is. Every sandboxed run
 * marks its session in `marks` (the state store: shared by replicas). Undefined when the config sandboxes nothing
 * (then no session can be sandboxed, and no turn looks anything up).
 */
export function gatewaySandboxFor(
  config: ToolSearchConfig,
  store: SessionStore | undefined,
  marks: StateStore | undefined,
): ((party: SandboxParty) => Promise<boolean>) | undefined {
  if (!sandboxConfigured(config)) return undefined;
  const sandboxedHere = async (agentId: string | undefined, sessionId: string | undefined) =>
    resolveSandboxFor(config, { ...(agentId ? { agentId } : {}), ...(sessionId ? { sessionId } : {}) }).sandboxed ||
    (sessionId !== undefined && marks !== undefined && (await marks.get(markKey(sessionId))) !== undefined);
  return async ({ agentId, sessionId }) => {
    const sandboxed =
      (await sandboxedHere(agentId, sessionId)) ||
      (store !== undefined && sessionId !== undefined && (await sandboxedAncestor(store, sessionId, sandboxedHere)));
    // Renewed on every sandboxed turn; a session idle longer than the mark lives is decided afresh.
    if (sandboxed && sessionId !== undefined) await marks?.set(markKey(sessionId), '1', { ttlMs: MARK_TTL_MS });
    return sandboxed;
  };
}

/** Whether a session that started `sessionId` (transitively) is sandboxed. A store that fails fails the turn. */
async function sandboxedAncestor(
  store: SessionStore,
  sessionId: string,
  sandboxedHere: (agentId: string, sessionId: string) => Promise<boolean>,
): Promise<boolean> {
  const seen = new Set([sessionId]);
  let parentId = (await store.get(sessionId))?.parentId;
  while (parentId !== undefined) {
    // A loop, or a chain longer than spawns make: not a tree the session tools wrote, so fail closed.
    if (seen.has(parentId) || seen.size > MAX_ANCESTORS) return true;
    seen.add(parentId);
    const parent = await store.get(parentId);
    // Named but not (yet) recorded: whether it was sandboxed is unknown, so this one is.
    if (!parent) return true;
    if (await sandboxedHere(parent.agentId, parentId)) return true;
    parentId = parent.parentId;
  }
  return false;
}

const markKey = (sessionId: string) => `sandboxed-session:${sessionId}`;
