/**
 * The security gate of one exec call, used twice: by the approval rule (in
 * `beforeToolCall`, to say whether a human must be asked) and by the tool
 * right before it spawns (to refuse). `deny` runs nothing; `allowlist` runs
 * commands whose every executable is on the allowlist; `full` runs anything.
 * `ask: "always"` asks for every command, `"on-miss"` for allowlist misses.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { allowlistMatch } from './allowlist.js';
import { analyzeCommand } from './command.js';
import type { EffectiveExec, ExecArgs } from './settings.js';
import { ExecErrors } from './errors.js';

export interface GateInput {
  readonly args: ExecArgs;
  readonly effective: EffectiveExec;
  readonly allowlist: readonly string[];
  readonly cwd: string;
  readonly path: string;
}

export type GateVerdict =
  | { readonly verdict: 'run' }
  | { readonly verdict: 'ask'; readonly reason: string }
  | { readonly verdict: 'refuse'; readonly error: ToolSearchError };

export function judge(input: GateInput): GateVerdict {
  const { effective } = input;
  if (effective.security === 'deny') {
    return {
      verdict: 'refuse',
      error: new ToolSearchError(
        ExecErrors.EXEC_SECURITY_DENY,
        'exec refused: security is "deny", so no command runs',
        { details: { rule: 'security' } },
      ),
    };
  }
  const miss = effective.security === 'allowlist' ? allowlistMiss(input) : undefined;
  if (effective.ask === 'always')
    return { verdict: 'ask', reason: `tools.exec.ask is "always"${miss ? ` (and ${miss})` : ''}` };
  if (miss === undefined) return { verdict: 'run' };
  if (effective.ask === 'on-miss') return { verdict: 'ask', reason: miss };
  return {
    verdict: 'refuse',
    error: new ToolSearchError(ExecErrors.EXEC_NOT_ALLOWLISTED, `exec refused: ${miss}`, {
      details: { rule: 'allowlist' },
    }),
  };
}

function allowlistMiss({ args, allowlist, cwd, path }: GateInput): string | undefined {
  const analysis = analyzeCommand(args.command);
  if (!analysis.ok) return analysis.reason;
  const off = analysis.executables.filter((exe) => allowlistMatch(exe, allowlist, { cwd, path }) === undefined);
  if (off.length)
    return `${off.map((exe) => JSON.stringify(exe)).join(', ')} ${off.length > 1 ? 'are' : 'is'} not on tools.exec.allowlist`;
  if (args.env && Object.keys(args.env).length) return 'env overrides change what an allowlisted executable does';
  return undefined;
}
