/**
 * One exec call's effective settings: config gives defaults and ceilings,
 * arguments may only narrow them. Refused with EXEC_ARGUMENT_NOT_ALLOWED
 * (`details.rule`): a `security` above config, a different `host` (except
 * gateway → sandbox), an `ask` below config, a `timeout` above
 * `timeoutSec`, `elevated` where it is not allowed, and env keys that hijack
 * the shell or the loader. `yieldMs` above config is lowered to it.
 */
import { ToolSearchError, type RunInfo } from '@tool-search/kernel';
import { ExecErrors } from './errors.js';
import type { ExecAsk, ExecHost, ExecSecurity } from './options.js';

export interface ExecArgs {
  readonly command: string;
  readonly workdir?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly yieldMs?: number;
  readonly background?: boolean;
  readonly timeout?: number;
  readonly pty?: boolean;
  readonly host?: ExecHost;
  readonly security?: ExecSecurity;
  readonly ask?: ExecAsk;
  readonly node?: string;
  readonly elevated?: boolean;
}

/** Config after defaults, as one call sees it. */
export interface ExecLimits {
  readonly host: ExecHost;
  readonly security: ExecSecurity;
  readonly ask: ExecAsk;
  readonly timeoutSec: number;
  readonly yieldMs: number;
  /** `tools.elevated.enabled`, and this agent's `tools.elevated.enabled` not false (an agent may only restrict). */
  readonly elevatedAllowed: boolean;
}

export interface EffectiveExec {
  readonly host: ExecHost;
  readonly security: ExecSecurity;
  readonly ask: ExecAsk;
  readonly timeoutMs: number;
  readonly yieldMs: number;
  /** The call asked for elevated and got it (a sandboxed run leaves the sandbox). */
  readonly elevated: boolean;
}

const SECURITY_RANK: Record<ExecSecurity, number> = { deny: 0, allowlist: 1, full: 2 };
const ASK_RANK: Record<ExecAsk, number> = { off: 0, 'on-miss': 1, always: 2 };

/** Env keys no call may set: they redirect the shell, the dynamic loader or bash functions. */
export function forbiddenEnvKey(key: string): boolean {
  return (
    key === 'PATH' ||
    key === 'BASH_ENV' ||
    key === 'ENV' ||
    key === 'SHELLOPTS' ||
    key === 'BASHOPTS' ||
    key === 'IFS' ||
    /^(LD_|DYLD_|BASH_FUNC_)/.test(key)
  );
}

export function effectiveExec(args: ExecArgs, limits: ExecLimits, run: RunInfo): EffectiveExec {
  const security = args.security ?? limits.security;
  if (SECURITY_RANK[security] > SECURITY_RANK[limits.security])
    refuse('security', `security "${security}" is above tools.exec.security "${limits.security}"`);
  const ask = args.ask ?? limits.ask;
  if (ASK_RANK[ask] < ASK_RANK[limits.ask]) refuse('ask', `ask "${ask}" is below tools.exec.ask "${limits.ask}"`);
  const timeoutSec = args.timeout ?? limits.timeoutSec;
  if (timeoutSec > limits.timeoutSec)
    refuse('timeout', `timeout ${timeoutSec}s is above tools.exec.timeoutSec ${limits.timeoutSec}`);
  for (const key of Object.keys(args.env ?? {}))
    if (forbiddenEnvKey(key)) refuse('env', `env.${key} may not be set by a call`);

  let host = args.host ?? limits.host;
  if (host !== limits.host && !(limits.host === 'gateway' && host === 'sandbox')) {
    refuse(
      'host',
      `host "${host}" differs from tools.exec.host "${limits.host}" (a call may only move gateway → sandbox)`,
    );
  }
  let effectiveSecurity = security;
  let elevated = false;
  if (args.elevated) {
    // Elevated as documented: the gateway host with security=full, only where tools.elevated and the agent allow it.
    if (!limits.elevatedAllowed) {
      throw new ToolSearchError(
        ExecErrors.EXEC_ELEVATED_NOT_ALLOWED,
        "exec refused elevated: it needs tools.elevated.enabled, and the agent's tools.elevated.enabled not false",
        { details: { rule: 'elevated' } },
      );
    }
    // The document's rule: elevated is the way out of a sandboxed run, and a no-op elsewhere. An unsandboxed run
    // keeps its configured host and security (the allowlist holds), or elevated would be a way around both.
    if (run.request.sandboxed) {
      elevated = true;
      host = 'gateway';
      effectiveSecurity = 'full';
    }
  }
  if (!elevated && run.request.sandboxed && host !== 'node') {
    // A sandboxed agent's commands stay in the sandbox; elevated is the one way out.
    host = 'sandbox';
  }
  return {
    host,
    security: effectiveSecurity,
    ask,
    timeoutMs: timeoutSec * 1000,
    yieldMs: Math.min(args.yieldMs ?? limits.yieldMs, limits.yieldMs),
    elevated,
  };
}

function refuse(rule: string, why: string): never {
  throw new ToolSearchError(
    ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    `exec refused: ${why}; arguments may only narrow what config allows`,
    { details: { rule } },
  );
}
