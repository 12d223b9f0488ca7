/**
 * The real core runtime tools `core:core:exec` and `core:core:process`.
 * `listTools` adds them (unless their host cannot run here) and sets exec's
 * approval rule for the run; `runStart` notes whether `process` survived
 * policy (if not, exec runs synchronously); `shutdown` kills every command
 * still running, background or not.
 */
import { silentLogger, type KernelPlugin, type Logger, type RunInfo, type ToolDefinition } from '@tool-search/kernel';
import { setCallApprovalRule } from '@tool-search/approval-rules';
import { workspaceRoot } from '@tool-search/workspace';
import { approvalNeed, runExec, type ExecDeps } from './exec.js';
import { ProcessGroups } from './limits.js';
import { checkExecConfig, EXEC_DEFAULTS, EXEC_LIMIT_DEFAULTS, type ExecHost } from './options.js';
import { PROCESS_ID, runProcess, type ProcessArgs } from './process.js';
import { gatewayIsRoot, probeBubblewrap, resolveExecutable, SANDBOX_UID, sandboxWorkspaceAccess } from './sandbox.js';
import type { ExecArgs, ExecLimits } from './settings.js';
import { SessionOwners } from './owners.js';
import { SessionStore } from './store.js';
import type { StateStore } from '@tool-search/state';
import { EXEC_DESCRIPTION, execSchema, PROCESS_DESCRIPTION, processSchema } from './tools.js';
import { ExecErrors } from './errors.js';

export const PLUGIN_NAME = '@tool-search/plugin-exec';
export const EXEC_ID = 'core:core:exec';

export interface ExecPluginOptions {
  /** The folder commands run in (`plugins.core.workspace`); the sandbox's only writable folder. */
  readonly workspace: string;
  /** `tools.exec` (host, security, ask, allowlist, timeoutSec, yieldMs, env, limits); other keys are ignored here. */
  readonly exec?: unknown;
  /** `tools.elevated` (`enabled`). */
  readonly elevated?: { readonly enabled?: boolean };
  /** `agents.list`, for each agent's `tools.elevated`. */
  readonly agents?: readonly {
    readonly id: string;
    readonly default?: boolean;
    readonly tools?: { readonly elevated?: unknown };
  }[];
  /** The bubblewrap binary. Default `bwrap` (on this process's PATH). */
  readonly bwrap?: string;
  /** Timeouts of the bubblewrap probe's attempts (default 10 s, 30 s, 60 s: a slow machine is not a missing sandbox). */
  readonly probeTimeoutsMs?: readonly number[];
  /** Shared state: background sessions are recorded as this replica's, so `process` on another replica names the owner. */
  readonly state?: StateStore;
  /**
   * What the sandbox must not read although its user could: the config folder (API keys), session logs, cron and state
   * folders. Each is empty inside the sandbox; a workspace inside one of them is still there.
   */
  readonly hidden?: readonly string[];
}

export function execPlugin(options: ExecPluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  const config = checkExecConfig(options.exec);
  const bwrap = resolveExecutable(options.bwrap ?? 'bwrap');
  const bubblewrap = probeBubblewrap(bwrap, options.probeTimeoutsMs);
  // The sandbox's user must reach the workspace for bwrap to bind it (a root gateway's sandbox user is SANDBOX_UID).
  const { access, blocked } = bubblewrap.ok ? sandboxWorkspaceAccess(root) : { access: 'writable', blocked: undefined };
  const probe: typeof bubblewrap =
    access === 'unreachable' ? { ok: false, attempts: bubblewrap.attempts, reason: unreachable(root) } : bubblewrap;
  const sandboxAvailable = probe.ok;
  // Host execution only where the operator configured it: without bubblewrap the default stays "sandbox" (not listed).
  const host: ExecHost = config.host ?? 'sandbox';
  const limits = { ...EXEC_LIMIT_DEFAULTS, ...config.limits };
  const groups = new ProcessGroups(limits);
  const store = new SessionStore();
  let logger: Logger = silentLogger;
  const owners = new SessionOwners(options.state, () => logger);
  const processAllowed = new WeakMap<RunInfo, boolean>();
  const limitsFor = (run: RunInfo): ExecLimits => ({
    host,
    security: config.security ?? EXEC_DEFAULTS.security,
    ask: config.ask ?? EXEC_DEFAULTS.ask,
    timeoutSec: config.timeoutSec ?? EXEC_DEFAULTS.timeoutSec,
    yieldMs: config.yieldMs ?? EXEC_DEFAULTS.yieldMs,
    elevatedAllowed: options.elevated?.enabled === true && agentElevated(options.agents, run.request.agentId),
  });
  const deps: ExecDeps = {
    root,
    config,
    limitsFor,
    sandbox: {
      available: sandboxAvailable,
      bwrap,
      ...(probe.ok ? {} : { reason: probe.reason }),
      ...(blocked ? { blocked } : {}),
    },
    limits,
    groups,
    store,
    owners,
    processAllowed: (run) => processAllowed.get(run) === true,
    ...(options.hidden ? { hidden: options.hidden } : {}),
  };
  const definitions: readonly ToolDefinition[] = Object.freeze([
    {
      name: 'exec',
      source: 'core',
      owner: 'core',
      description: EXEC_DESCRIPTION,
      inputSchema: execSchema,
      annotations: { destructiveHint: true },
      execute: (args, ctx) => runExec(args as unknown as ExecArgs, ctx, deps),
    },
    {
      name: 'process',
      source: 'core',
      owner: 'core',
      description: PROCESS_DESCRIPTION,
      inputSchema: processSchema,
      execute: (args, ctx) => runProcess(args as unknown as ProcessArgs, ctx, store, owners),
    },
  ]);

  return {
    name: PLUGIN_NAME,
    apply({ hooks, logger: scoped }) {
      logger = scoped;
      hooks.listTools.tap((sink, ctx) => {
        const needsSandbox = host === 'sandbox' || ctx.run.request.sandboxed === true;
        if (host === 'node' || (needsSandbox && !sandboxAvailable)) {
          sink.diagnostic({
            code: ExecErrors.EXEC_HOST_UNAVAILABLE,
            level: 'error',
            message:
              host === 'node'
                ? 'exec is not listed: tools.exec.host is "node" and no node host is configured here'
                : access === 'unreachable'
                  ? `exec is not listed: ${unreachable(root)}`
                  : `exec is not listed: its sandbox needs bubblewrap, which does not run here (${probe.ok ? '' : probe.reason}). Install it (apt-get install -y bubblewrap), or set tools.exec.host to "gateway" to run commands on this machine unsandboxed`,
            details: { host, ...(probe.ok ? {} : { reason: probe.reason }) },
          });
          return;
        }
        if (needsSandbox && access === 'read-only') {
          sink.diagnostic({
            code: ExecErrors.EXEC_HOST_UNAVAILABLE,
            level: 'warning',
            message: readOnly(root),
            details: { host: 'sandbox', workspace: root, access },
          });
        }
        if (groups.bound === 'none' && host === 'gateway') {
          sink.diagnostic({
            code: ExecErrors.EXEC_HOST_UNAVAILABLE,
            level: 'warning',
            // Sandboxed commands run as SANDBOX_UID, where RLIMIT_NPROC holds; on the gateway host they are root.
            message: `tools.exec.limits.processes (${limits.processes}) is not enforced on the gateway host: this gateway runs as root (RLIMIT_NPROC does not hold for root's user) and cannot make a pids cgroup`,
            details: { host, limit: 'processes' },
          });
        }
        sink.add(definitions);
        setCallApprovalRule(ctx.run, EXEC_ID, (call, run) => approvalNeed(call.args as unknown as ExecArgs, run, deps));
      });
      hooks.runStart.tap((run, catalog) => {
        processAllowed.set(
          run,
          catalog.some((tool) => tool.id === PROCESS_ID),
        );
      });
      hooks.shutdown.tapPromise(async () => {
        await store.closeAll();
        await groups.close();
      });
    },
  };
}

function unreachable(root: string): string {
  return gatewayIsRoot()
    ? `the sandbox runs commands as uid ${SANDBOX_UID}, which cannot enter the workspace ${root}; to let it: chown ${SANDBOX_UID}:${SANDBOX_UID} ${root}`
    : `this user cannot enter the workspace ${root}`;
}

function readOnly(root: string): string {
  return gatewayIsRoot()
    ? `sandboxed commands run as uid ${SANDBOX_UID} and cannot write the workspace ${root}, which another user owns; to let them: chown -R ${SANDBOX_UID}:${SANDBOX_UID} ${root}`
    : `sandboxed commands cannot write the workspace ${root}: this user may not write it`;
}

/**
 * The agent's own gate (the default agent's when the run names none): OpenClaw's `agents.list[].tools.elevated` can
 * only further restrict `tools.elevated`, so an agent without the key follows it and `enabled: false` turns it off.
 */
function agentElevated(agents: ExecPluginOptions['agents'], agentId: string | undefined): boolean {
  const agent = agents?.find((a) => (agentId === undefined ? a.default === true : a.id === agentId));
  const elevated = agent?.tools?.elevated;
  if (elevated === undefined) return true;
  return typeof elevated === 'object' && elevated !== null && (elevated as { enabled?: unknown }).enabled !== false;
}
