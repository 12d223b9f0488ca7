// Allowlist, deny and "arguments may only narrow config": each bypass attempt is a test that fails if it works.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ToolCall } from '@tool-search/kernel';
import { callApprovalReason, grantCallApproval, ApprovalRulesErrors } from '@tool-search/approval-rules';
import { analyzeCommand, ExecErrors } from '@tool-search/plugin-exec';
import { closeAll, codeOf, execEnv, itSandboxed, structured } from './fixtures.js';

afterEach(closeAll);

const strict = { security: 'allowlist', ask: 'off', allowlist: ['echo', 'ls', 'cat'] } as const;

describe('security: "allowlist"', () => {
  it('runs commands whose every executable is on the allowlist', async () => {
    const run = await execEnv({ exec: strict }).run();
    expect(
      structured(await run.call('exec', { command: 'echo one && ls -a | cat; echo \'a;b\' "c d"' })).exitCode,
    ).toBe(0);
  });

  it('refuses everything that would run something off the list, and nothing runs', async () => {
    const env = execEnv({ exec: strict });
    writeFileSync(join(env.ws, 'victim.txt'), 'x');
    const run = await env.run();
    const attempts = [
      'rm victim.txt',
      'echo ok; rm victim.txt',
      'echo ok && rm victim.txt',
      'echo ok | rm victim.txt',
      'echo $(rm victim.txt)',
      'echo `rm victim.txt`',
      'echo "$(rm victim.txt)"',
      'echo ok\nrm victim.txt',
      'echo ok & rm victim.txt',
      'echo ok > victim.txt',
      'cat < /etc/passwd',
      '(rm victim.txt)',
      'X=1 rm victim.txt',
      './echo',
      '/bin/rm victim.txt',
      'r\\m victim.txt',
      'e* victim.txt',
      '~/bin/echo',
      'echo ok # && rm',
      'echo ok || rm victim.txt',
      'eval rm victim.txt',
    ];
    for (const command of attempts) {
      expect({ command, code: codeOf(await run.call('exec', { command })) }).toEqual({
        command,
        code: ExecErrors.EXEC_NOT_ALLOWLISTED,
      });
    }
    expect(existsSync(join(env.ws, 'victim.txt'))).toBe(true);
  });

  it('env overrides are an allowlist miss (they change what an allowlisted executable does)', async () => {
    const run = await execEnv({ exec: strict }).run();
    expect(codeOf(await run.call('exec', { command: 'ls', env: { LS_COLORS: 'x' } }))).toBe(
      ExecErrors.EXEC_NOT_ALLOWLISTED,
    );
  });

  it('path entries match the resolved executable, bare names only bare commands', async () => {
    const env = execEnv({ exec: { security: 'allowlist', ask: 'off', allowlist: ['/usr/bin/*'] } });
    const run = await env.run();
    expect(structured(await run.call('exec', { command: 'true' })).exitCode).toBe(0);
    expect(structured(await run.call('exec', { command: '/usr/bin/true' })).exitCode).toBe(0);
    writeFileSync(join(env.ws, 'true'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
    expect(codeOf(await run.call('exec', { command: './true' }))).toBe(ExecErrors.EXEC_NOT_ALLOWLISTED);
  });

  it('the analysis names each executable of a pipeline', () => {
    expect(analyzeCommand('git status && npm test | tee out; ls')).toEqual({
      ok: true,
      executables: ['git', 'npm', 'tee', 'ls'],
    });
    expect(analyzeCommand('ls\nrm -rf /').ok).toBe(false);
  });
});

describe('security: "deny"', () => {
  it('runs nothing, not even allowlisted commands', async () => {
    const run = await execEnv({ exec: { ...strict, security: 'deny' } }).run();
    expect(codeOf(await run.call('exec', { command: 'echo hi' }))).toBe(ExecErrors.EXEC_SECURITY_DENY);
  });

  it('a call may narrow to deny', async () => {
    const run = await execEnv({ exec: { security: 'full', ask: 'off' } }).run();
    expect(codeOf(await run.call('exec', { command: 'echo hi', security: 'deny' }))).toBe(
      ExecErrors.EXEC_SECURITY_DENY,
    );
  });
});

describe('a model cannot raise security, switch host or turn ask off through arguments', () => {
  const refused = async (exec: object, args: object) => {
    const run = await execEnv({ exec }).run();
    const outcome = await run.call('exec', { command: 'echo hi', ...args });
    return { code: codeOf(outcome) };
  };

  it('security above config', async () => {
    expect((await refused(strict, { security: 'full' })).code).toBe(ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED);
    expect((await refused({ ...strict, security: 'deny' }, { security: 'allowlist' })).code).toBe(
      ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    );
  });

  itSandboxed('a different host (sandbox → gateway), but gateway → sandbox is allowed', async () => {
    expect((await refused({ security: 'full', ask: 'off' }, { host: 'gateway' })).code).toBe(
      ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    );
    const run = await execEnv({ exec: { security: 'full', ask: 'off', host: 'gateway' } }).run();
    expect(structured(await run.call('exec', { command: 'echo hi', host: 'sandbox' })).host).toBe('sandbox');
  });

  it('ask below config', async () => {
    expect((await refused({ ...strict, ask: 'on-miss' }, { ask: 'off' })).code).toBe(
      ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    );
    expect((await refused({ ...strict, ask: 'always' }, { ask: 'on-miss' })).code).toBe(
      ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    );
  });

  it('a timeout above tools.exec.timeoutSec', async () => {
    expect((await refused({ security: 'full', ask: 'off', timeoutSec: 5 }, { timeout: 6 })).code).toBe(
      ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
    );
  });

  it('env keys that hijack the shell or the loader, whatever the security', async () => {
    for (const key of [
      'PATH',
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'DYLD_INSERT_LIBRARIES',
      'BASH_ENV',
      'ENV',
      'BASH_FUNC_echo%%',
      'SHELLOPTS',
      'IFS',
    ]) {
      expect((await refused({ security: 'full', ask: 'off' }, { env: { [key]: '/tmp/x' } })).code).toBe(
        ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED,
      );
    }
  });

  itSandboxed(
    'elevated is security=full on the gateway host, and only where allowed: otherwise refused and nothing runs',
    async () => {
      const denied = execEnv({
        exec: strict,
        elevated: { enabled: true },
        agents: [{ id: 'ops', tools: { elevated: { enabled: false } } }],
      });
      writeFileSync(join(denied.ws, 'victim.txt'), 'x');
      for (const request of [{ agentId: 'ops', sandboxed: true }, { agentId: 'ops' }]) {
        const run = await denied.run(request);
        expect(codeOf(await run.call('exec', { command: 'rm victim.txt', elevated: true }))).toBe(
          ExecErrors.EXEC_ELEVATED_NOT_ALLOWED,
        );
        // Without elevated the strict allowlist holds.
        expect(codeOf(await run.call('exec', { command: 'rm victim.txt' }))).toBe(ExecErrors.EXEC_NOT_ALLOWLISTED);
      }
      expect(existsSync(join(denied.ws, 'victim.txt'))).toBe(true);
      const allowed = execEnv({
        exec: strict,
        elevated: { enabled: true },
        agents: [{ id: 'ops', tools: { elevated: { enabled: true } } }],
      });
      writeFileSync(join(allowed.ws, 'victim.txt'), 'x');
      const run = await allowed.run({ agentId: 'ops', sandboxed: true });
      expect(structured(await run.call('exec', { command: 'rm victim.txt', elevated: true }))).toMatchObject({
        host: 'gateway',
        exitCode: 0,
      });
      expect(existsSync(join(allowed.ws, 'victim.txt'))).toBe(false);
    },
  );

  itSandboxed(
    'elevated is a no-op in an unsandboxed run: the configured host and the allowlist hold (not a way around them)',
    async () => {
      const env = execEnv({
        exec: strict,
        elevated: { enabled: true },
        agents: [{ id: 'ops', tools: { elevated: { enabled: true } } }],
      });
      writeFileSync(join(env.ws, 'victim.txt'), 'x');
      const run = await env.run({ agentId: 'ops' });
      // Before the fix this ran on the gateway host with security=full and removed the file.
      expect(codeOf(await run.call('exec', { command: 'rm victim.txt', elevated: true }))).toBe(
        ExecErrors.EXEC_NOT_ALLOWLISTED,
      );
      expect(existsSync(join(env.ws, 'victim.txt'))).toBe(true);
      expect(structured(await run.call('exec', { command: 'echo hi', elevated: true }))).toMatchObject({
        host: 'sandbox',
        exitCode: 0,
      });
    },
  );

  it('host "node": no node host is configured here', async () => {
    expect(
      (await refused({ security: 'full', ask: 'off', host: 'gateway' }, { host: 'node', node: 'phone' })).code,
    ).toBe(ExecErrors.EXEC_ARGUMENT_NOT_ALLOWED);
    const run = await execEnv({ exec: { security: 'full', ask: 'off', host: 'node' } }).run();
    expect(run.tool('exec')).toBeUndefined();
    expect(run.diagnostics.map((d) => d.code)).toContain(ExecErrors.EXEC_HOST_UNAVAILABLE);
  });
});

describe('ask: approval through the approval rule (no approvals plugin: fail closed)', () => {
  const callOf = (run: Awaited<ReturnType<ReturnType<typeof execEnv>['run']>>, command: string) =>
    ({ callId: 'probe', tool: run.tool('exec')!, args: { command }, origin: 'api' }) as ToolCall;

  it('on-miss: an allowlisted command needs no approval, a miss does, and without a grant it is APPROVAL_REQUIRED', async () => {
    const env = execEnv({ exec: { ...strict, ask: 'on-miss' } });
    writeFileSync(join(env.ws, 'victim.txt'), 'x');
    const run = await env.run();
    expect(callApprovalReason(run.info, callOf(run, 'echo hi'))).toBeUndefined();
    expect(callApprovalReason(run.info, callOf(run, 'rm victim.txt'))).toContain('"rm" is not on tools.exec.allowlist');
    expect(codeOf(await run.call('exec', { command: 'rm victim.txt' }))).toBe(ApprovalRulesErrors.APPROVAL_REQUIRED);
    expect(existsSync(join(env.ws, 'victim.txt'))).toBe(true);
  });

  it('always: even an allowlisted command needs approval; a grant lets exactly that call run', async () => {
    const grantAll = {
      name: 'grant-all',
      apply: ({ hooks }: Parameters<import('@tool-search/kernel').KernelPlugin['apply']>[0]) =>
        hooks.beforeToolCall.tap((call, ctx) => {
          if (callApprovalReason(ctx.run, call)) grantCallApproval(ctx.run, call.callId);
          return undefined;
        }),
    };
    const denied = await execEnv({ exec: { ...strict, ask: 'always' } }).run();
    expect(callApprovalReason(denied.info, callOf(denied, 'echo hi'))).toContain('always');
    expect(codeOf(await denied.call('exec', { command: 'echo hi' }))).toBe(ApprovalRulesErrors.APPROVAL_REQUIRED);
    const granted = await execEnv({ exec: { ...strict, ask: 'always' } }, [grantAll]).run();
    expect(structured(await granted.call('exec', { command: 'echo hi' })).output).toBe('hi\n');
  });

  it('refusals that need no human are not asked about (deny, raised arguments)', async () => {
    const run = await execEnv({ exec: { ...strict, ask: 'always', security: 'deny' } }).run();
    expect(callApprovalReason(run.info, callOf(run, 'echo hi'))).toBeUndefined();
  });
});
