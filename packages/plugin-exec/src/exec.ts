/**
 * Running one exec call: settings (config narrowed by the arguments), the
 * gate (deny / allowlist / approval), the host (bubblewrap sandbox or this
 * machine), then foreground, background after `yieldMs`, or — when `process`
 * is not allowed for the run — synchronously to the end.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { ErrorCode, ToolSearchError, type ExecuteContext, type RunInfo, type ToolResult } from '@tool-search/kernel';
import { takeCallApproval, ApprovalRulesErrors } from '@tool-search/approval-rules';
import { resolveInWorkspace, WorkspaceErrors } from '@tool-search/workspace';
import { judge, type GateVerdict } from './gate.js';
import type { ExecConfig } from './options.js';
import { tail } from './output.js';
import { innerLauncher, outerLauncher, type ProcessGroups } from './limits.js';
import type { ExecResourceLimits } from './options.js';
import { bwrapLauncher, reachableHidden, sandboxArgs, stageLauncher, type HiddenPath } from './sandbox.js';
import { sandboxFilter } from './seccomp.js';
import { ExecSession, type SpawnSpec } from './session.js';
import { effectiveExec, type EffectiveExec, type ExecArgs, type ExecLimits } from './settings.js';
import type { SessionOwners } from './owners.js';
import type { SessionStore } from './store.js';
import { ExecErrors } from './errors.js';

const SECCOMP = sandboxFilter();

/** The PATH every command gets; a call cannot change it. */
export const EXEC_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
// --norc: bash sources ~/.bashrc when stdin is a socket (libuv's pipes are socketpairs), as if run by rshd.
const SHELL = existsSync('/bin/bash') ? ['/bin/bash', '--norc', '--noprofile'] : ['/bin/sh'];

export interface ExecDeps {
  readonly root: string;
  readonly config: ExecConfig;
  readonly limitsFor: (run: RunInfo) => ExecLimits;
  /** bubblewrap: whether it runs here (and why not), the resolved binary. */
  readonly sandbox: {
    readonly available: boolean;
    readonly bwrap: string;
    readonly reason?: string;
    /** The folder above the workspace the sandbox user may not enter (see `stageLauncher`). */
    readonly blocked?: string;
  };
  readonly limits: ExecResourceLimits;
  readonly groups: ProcessGroups;
  readonly store: SessionStore;
  readonly owners: SessionOwners;
  readonly processAllowed: (run: RunInfo) => boolean;
  /** What the sandbox hides (`ExecPluginOptions.hidden`). */
  readonly hidden?: readonly string[];
}

export function agentKey(run: RunInfo): string {
  return run.request.agentId ?? 'main';
}

/** The gate's verdict for a call, or the refusal its settings or host already imply. */
export function prepare(
  args: ExecArgs,
  run: RunInfo,
  deps: ExecDeps,
): { effective: EffectiveExec; cwd: string; verdict: GateVerdict } {
  const effective = effectiveExec(args, deps.limitsFor(run), run);
  if (effective.host === 'node')
    throw unavailable(
      'node',
      'no node host is configured: this deployment runs commands on the gateway or in its sandbox only',
    );
  if (effective.host === 'sandbox' && !deps.sandbox.available)
    throw unavailable(
      'sandbox',
      `bubblewrap does not run here (${deps.sandbox.reason ?? 'probe failed'}); install it: apt-get install -y bubblewrap`,
    );
  const cwd = workdir(deps.root, args.workdir);
  const verdict = judge({ args, effective, allowlist: deps.config.allowlist ?? [], cwd, path: EXEC_PATH });
  return { effective, cwd, verdict };
}

/** The approval rule's answer: why this call needs a human, if it does. */
export function approvalNeed(args: ExecArgs, run: RunInfo, deps: ExecDeps): string | undefined {
  try {
    const { verdict } = prepare(args, run, deps);
    return verdict.verdict === 'ask'
      ? `exec ${JSON.stringify(args.command.slice(0, 200))}: ${verdict.reason}`
      : undefined;
  } catch {
    return undefined; // the tool refuses it with the coded error
  }
}

export async function runExec(args: ExecArgs, ctx: ExecuteContext, deps: ExecDeps): Promise<ToolResult> {
  const { effective, cwd, verdict } = prepare(args, ctx.run, deps);
  if (verdict.verdict === 'refuse') throw verdict.error;
  if (verdict.verdict === 'ask' && !takeCallApproval(ctx.run, ctx.callId)) {
    throw new ToolSearchError(
      ApprovalRulesErrors.APPROVAL_REQUIRED,
      `exec needs approval (${verdict.reason}) and no approver allowed it; register the approvals plugin`,
      {
        details: { rule: 'ask' },
      },
    );
  }
  const hidden = effective.host === 'sandbox' ? await hiddenPaths(deps) : [];
  const session = new ExecSession(agentKey(ctx.run), args.command, spawnSpec(args, effective, cwd, deps, hidden));
  deps.store.track(session);
  const canBackground = deps.processAllowed(ctx.run);
  if (canBackground && args.background) return background(session, deps, effective);
  const waited = await waitFor(session, canBackground ? effective.yieldMs : undefined, ctx.signal);
  if (waited === 'aborted') {
    await session.kill();
    throw new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, 'The exec call was cancelled; the command was killed');
  }
  if (waited === 'yielded') return background(session, deps, effective);
  return finished(session, effective);
}

function spawnSpec(
  args: ExecArgs,
  effective: EffectiveExec,
  cwd: string,
  deps: ExecDeps,
  hidden: readonly HiddenPath[],
): SpawnSpec {
  const sandboxed = effective.host === 'sandbox';
  const env = {
    PATH: EXEC_PATH,
    HOME: sandboxed ? '/tmp' : homedir(),
    LANG: 'C.UTF-8',
    TERM: args.pty ? 'xterm-256color' : 'dumb',
    OPENCLAW_SHELL: 'exec',
    ...deps.config.env,
    ...args.env,
  };
  const command = args.pty ? ['/usr/bin/script', '-qefc', args.command, '/dev/null'] : [...SHELL, '-c', args.command];
  // RLIMIT_NPROC inside the sandbox counts the sandbox's own user namespace; on this machine it would count every
  // process of the gateway's user, so the gateway host bounds processes with the cgroup only.
  const argv = innerLauncher(SHELL, deps.limits, sandboxed, command);
  // As root: the launcher joins the cgroup and keeps the seccomp fd as root, then setpriv drops to the sandbox's uid.
  const launcher = sandboxed ? sandboxLauncher(deps) : undefined;
  const cgroup = deps.groups.create();
  const common = { cwd, timeoutMs: effective.timeoutMs, limits: deps.limits, sandboxed, ...(cgroup ? { cgroup } : {}) };
  if (!sandboxed) {
    const [file, ...rest] = outerLauncher(
      SHELL,
      { ...(cgroup ? { cgroup } : {}), gateway: process.pid },
      argv[0]!,
      argv.slice(1),
    );
    return { ...common, file: file!, args: rest, env };
  }
  const { blocked } = deps.sandbox;
  const bwrap = sandboxArgs({ workspace: deps.root, cwd, env, limits: deps.limits, hidden, blocked }, argv);
  const [launch, ...prefix] = launcher!;
  const cg = cgroup ? { cgroup } : {};
  const [file, ...rest] = outerLauncher(SHELL, { keepFd: 3, ...cg }, launch!, [...prefix, ...bwrap]);
  return { ...common, file: file!, args: rest, env: {}, fd3: SECCOMP };
}

/** What starts bwrap: [staging for a workspace behind a blocked folder,] [setpriv for a root gateway,] bwrap. */
function sandboxLauncher(deps: ExecDeps): string[] {
  const launcher = bwrapLauncher(deps.sandbox.bwrap);
  const stage = deps.sandbox.blocked ? stageLauncher(deps.root) : [];
  if (!launcher || !stage)
    throw setupFailed('setpriv, unshare or mount is missing (apt-get install -y util-linux mount)');
  return [...stage, ...launcher];
}

/** The hidden paths to mount over, asked of the sandbox's user; nothing runs when that cannot be asked. */
async function hiddenPaths(deps: ExecDeps): Promise<HiddenPath[]> {
  try {
    return await reachableHidden(deps.hidden ?? []);
  } catch (cause) {
    throw setupFailed('could not check which hidden paths the sandbox user reaches', cause);
  }
}

function setupFailed(why: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(ExecErrors.EXEC_SANDBOX_SETUP_FAILED, `exec ${why}; nothing ran`, {
    ...(cause ? { cause } : {}),
  });
}

function waitFor(
  session: ExecSession,
  yieldMs: number | undefined,
  signal: AbortSignal,
): Promise<'exited' | 'yielded' | 'aborted'> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (value: 'exited' | 'yielded' | 'aborted') => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done('aborted');
    if (signal.aborted) return done('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    if (yieldMs !== undefined) timer = setTimeout(() => done('yielded'), yieldMs);
    void session.exited.then(() => done('exited'));
  });
}

async function background(session: ExecSession, deps: ExecDeps, effective: EffectiveExec): Promise<ToolResult> {
  deps.store.keep(session);
  await deps.owners.claim(session.agent, session.id, effective.timeoutMs);
  session.pollCursor = session.output.total;
  const output = tail(session.output.text());
  return {
    content: [
      {
        type: 'text',
        text: `Command is running in the background (session ${session.id}); poll it with process { action: "poll", sessionId: "${session.id}" }.${output ? `\n${output}` : ''}`,
      },
    ],
    structuredContent: { status: 'running', sessionId: session.id, host: effective.host, tail: output },
  };
}

function finished(session: ExecSession, effective: EffectiveExec): ToolResult {
  const output = tail(session.output.text());
  if (session.status === 'timeout') {
    throw new ToolSearchError(
      ExecErrors.EXEC_TIMEOUT,
      `The command ran past its timeout of ${effective.timeoutMs / 1000}s and was killed. Output so far:\n${output}`,
      {
        details: { rule: 'timeout', timeoutSec: effective.timeoutMs / 1000 },
      },
    );
  }
  if (session.status === 'failed')
    throw new ToolSearchError(ErrorCode.TOOL_EXECUTION_FAILED, `The command could not start: ${session.error}`);
  const end = session.exitCode !== null ? `[exit code ${session.exitCode}]` : `[killed by ${session.signal}]`;
  const limit = session.limit ? `\n[limit: ${session.limit.message}]` : '';
  return {
    content: [{ type: 'text', text: `${output}${output.endsWith('\n') || !output ? '' : '\n'}${end}${limit}` }],
    structuredContent: {
      status: 'exited',
      exitCode: session.exitCode,
      ...(session.signal ? { signal: session.signal } : {}),
      host: effective.host,
      output,
      ...(session.limit ? { limit: session.limit } : {}),
    },
  };
}

function workdir(root: string, input: string | undefined): string {
  if (input === undefined) return root;
  const target = resolveInWorkspace(root, input);
  if (!target.exists)
    throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `workdir ${input} does not exist in the workspace`, {
      details: { path: input },
    });
  return target.absolute;
}

function unavailable(host: string, why: string): ToolSearchError {
  return new ToolSearchError(ExecErrors.EXEC_HOST_UNAVAILABLE, `exec host "${host}" is not available: ${why}`, {
    details: { host },
  });
}
