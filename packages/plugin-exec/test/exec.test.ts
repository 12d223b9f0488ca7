import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { LOG_DEFAULT_LINES, MAX_SESSION_OUTPUT_CHARS } from '@tool-search/plugin-exec';
import {
  closeAll,
  codeOf,
  execEnv,
  itSandboxed,
  OPEN,
  pollToEnd,
  processGone,
  processRunning,
  structured,
} from './fixtures.js';
import { ExecErrors } from '../src/errors.js';
import { WorkspaceErrors } from '@tool-search/workspace';

afterEach(closeAll);

describe('exec', () => {
  it('is core:core:exec with exactly the documented parameters', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const props = (name: string) =>
      Object.keys((run.tool(name)!.inputSchema as { properties: object }).properties).sort();
    expect(run.catalog.map((t) => t.id).sort()).toEqual(['core:core:exec', 'core:core:process']);
    expect(props('exec')).toEqual([
      'ask',
      'background',
      'command',
      'elevated',
      'env',
      'host',
      'node',
      'pty',
      'security',
      'timeout',
      'workdir',
      'yieldMs',
    ]);
    expect(props('process')).toEqual(['action', 'data', 'eof', 'limit', 'offset', 'sessionId']);
  });

  itSandboxed('runs a command in the foreground and returns its output and exit code', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    expect(structured(await run.call('exec', { command: 'echo hello' }))).toMatchObject({
      status: 'exited',
      exitCode: 0,
      output: 'hello\n',
      host: 'sandbox',
    });
  });

  it('a non-zero exit is a normal result with its exit code', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const outcome = await run.call('exec', { command: 'echo failing >&2; exit 3' });
    expect(outcome.status).toBe('ok');
    expect(structured(outcome)).toMatchObject({ exitCode: 3, output: 'failing\n' });
  });

  it('runs in workdir inside the workspace and refuses one outside (.., symlink, absolute)', async () => {
    const env = execEnv({ exec: OPEN });
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(`${env.ws}/sub`);
    const run = await env.run();
    expect(structured(await run.call('exec', { command: 'pwd', workdir: 'sub' })).output).toBe(`${env.ws}/sub\n`);
    expect(codeOf(await run.call('exec', { command: 'pwd', workdir: '..' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    symlinkSync(env.outside, `${env.ws}/out`);
    expect(codeOf(await run.call('exec', { command: 'pwd', workdir: 'out' }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
    expect(codeOf(await run.call('exec', { command: 'pwd', workdir: env.outside }))).toBe(
      WorkspaceErrors.PATH_OUTSIDE_WORKSPACE,
    );
  });

  it('a background build-like command is polled to completion', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const started = structured(
      await run.call('exec', {
        command: 'for i in 1 2 3; do echo "compiling $i"; sleep 0.1; done; echo built',
        background: true,
      }),
    );
    expect(started).toMatchObject({ status: 'running' });
    const { last, output } = await pollToEnd(run, String(started.sessionId));
    expect(last).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(output).toBe('compiling 1\ncompiling 2\ncompiling 3\nbuilt\n');
  });

  it('moves a command to the background after yieldMs', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const started = structured(await run.call('exec', { command: 'sleep 0.5; echo late', yieldMs: 50 }));
    expect(started.status).toBe('running');
    expect((await pollToEnd(run, String(started.sessionId))).output).toBe('late\n');
  });

  it('kills a foreground command past its timeout with EXEC_TIMEOUT', async () => {
    const run = await execEnv({ exec: { ...OPEN, yieldMs: 60_000 } }).run();
    expect(codeOf(await run.call('exec', { command: 'sleep 41.5', timeout: 1 }))).toBe(ExecErrors.EXEC_TIMEOUT);
    expect(await processGone('sleep 41.5')).toBe(true);
  });

  it('kills a background command past its timeout; poll reports it', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const started = structured(await run.call('exec', { command: 'sleep 42.5', background: true, timeout: 1 }));
    expect((await pollToEnd(run, String(started.sessionId))).last).toMatchObject({ status: 'timeout' });
    expect(await processGone('sleep 42.5')).toBe(true);
  });

  it('writes to stdin of a background session (and closes it with eof)', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const started = structured(
      await run.call('exec', { command: 'read name; echo "hello $name"; cat', background: true }),
    );
    const sessionId = String(started.sessionId);
    expect(structured(await run.call('process', { action: 'write', sessionId, data: 'world\n' }))).toMatchObject({
      written: true,
    });
    await run.call('process', { action: 'write', sessionId, data: 'rest', eof: true });
    const { last, output } = await pollToEnd(run, sessionId);
    expect(last.exitCode).toBe(0);
    expect(output).toBe('hello world\nrest');
  });

  itSandboxed('runs in a pseudo-terminal with pty: true', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    expect(String(structured(await run.call('exec', { command: 'tty' })).output)).toContain('not a tty');
    expect(String(structured(await run.call('exec', { command: 'tty', pty: true })).output)).toMatch(/\/dev\/pts\/\d+/);
  });

  it('runs synchronously and ignores yieldMs/background when process is not allowed for the run', async () => {
    const dropProcess = {
      name: 'drop-process',
      apply: ({ hooks }: Parameters<import('@tool-search/kernel').KernelPlugin['apply']>[0]) =>
        hooks.filterPolicy.tap((tools) => tools.filter((t) => t.name !== 'process')),
    };
    const run = await execEnv({ exec: OPEN }, [dropProcess]).run();
    expect(run.tool('process')).toBeUndefined();
    expect(
      structured(await run.call('exec', { command: 'sleep 0.3; echo sync', background: true, yieldMs: 0 })),
    ).toMatchObject({ status: 'exited', output: 'sync\n' });
  });
});

describe('process', () => {
  it('lists, logs (last lines, offset/limit), kills, clears and removes sessions', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const done = String(structured(await run.call('exec', { command: 'seq 1 300', background: true })).sessionId);
    await pollToEnd(run, done);
    const sleeper = String(structured(await run.call('exec', { command: 'sleep 43.5', background: true })).sessionId);
    const list = structured(await run.call('process', { action: 'list' })).sessions as {
      sessionId: string;
      status: string;
      name: string;
    }[];
    expect(list.map((s) => [s.sessionId, s.status])).toEqual([
      [done, 'exited'],
      [sleeper, 'running'],
    ]);
    expect(list[1]!.name).toBe('sleep 43.5');

    const last = await run.call('process', { action: 'log', sessionId: done });
    expect(structured(last)).toMatchObject({
      offset: 300 - LOG_DEFAULT_LINES,
      lines: LOG_DEFAULT_LINES,
      totalLines: 300,
    });
    const page = await run.call('process', { action: 'log', sessionId: done, offset: 10, limit: 3 });
    expect(page.status === 'ok' && page.result.content[0]).toMatchObject({ text: '11\n12\n13' });
    expect(structured(await run.call('process', { action: 'log', sessionId: done, offset: 295 }))).toMatchObject({
      lines: 5,
    });

    expect(codeOf(await run.call('process', { action: 'clear', sessionId: sleeper }))).toBe(
      ErrorCode.TOOL_EXECUTION_FAILED,
    );
    expect(structured(await run.call('process', { action: 'kill', sessionId: sleeper }))).toMatchObject({
      status: 'killed',
    });
    expect(await processGone('sleep 43.5')).toBe(true);
    await run.call('process', { action: 'clear', sessionId: sleeper });
    await run.call('process', { action: 'remove', sessionId: done });
    expect(structured(await run.call('process', { action: 'list' })).sessions).toEqual([]);
    expect(codeOf(await run.call('process', { action: 'poll', sessionId: done }))).toBe(
      ExecErrors.PROCESS_SESSION_UNKNOWN,
    );
  });

  it('remove kills a running session', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const id = String(structured(await run.call('exec', { command: 'sleep 44.5', background: true })).sessionId);
    await run.call('process', { action: 'remove', sessionId: id });
    expect(await processGone('sleep 44.5')).toBe(true);
  });

  it('needs a sessionId for every action but list', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    expect(codeOf(await run.call('process', { action: 'poll' }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it("scopes sessions per agent: one agent never sees another's", async () => {
    const env = execEnv({ exec: OPEN });
    const alice = await env.run({ agentId: 'alice' });
    const bob = await env.run({ agentId: 'bob' });
    const id = String(structured(await alice.call('exec', { command: 'sleep 45.5', background: true })).sessionId);
    expect(structured(await bob.call('process', { action: 'list' })).sessions).toEqual([]);
    for (const action of ['poll', 'log', 'kill', 'remove'] as const) {
      expect(codeOf(await bob.call('process', { action, sessionId: id }))).toBe(ExecErrors.PROCESS_SESSION_UNKNOWN);
    }
    expect(codeOf(await bob.call('process', { action: 'write', sessionId: id, data: 'x' }))).toBe(
      ExecErrors.PROCESS_SESSION_UNKNOWN,
    );
    // The same agent in a later run (the next turn) still sees it.
    const aliceAgain = await env.run({ agentId: 'alice' });
    expect((structured(await aliceAgain.call('process', { action: 'list' })).sessions as unknown[]).length).toBe(1);
    expect(await processRunning('sleep 45.5')).toBe(true);
  });

  it(`keeps at most ${MAX_SESSION_OUTPUT_CHARS} characters of output per session`, async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const id = String(
      structured(
        await run.call('exec', {
          command: `head -c ${MAX_SESSION_OUTPUT_CHARS * 2} /dev/zero | tr '\\0' 'x'; echo; echo END`,
          background: true,
        }),
      ).sessionId,
    );
    const { output } = await pollToEnd(run, id);
    expect(output.length).toBeLessThan(MAX_SESSION_OUTPUT_CHARS);
    const log = await run.call('process', { action: 'log', sessionId: id, limit: 1 });
    expect(log.status === 'ok' && log.result.content[0]).toMatchObject({
      text: expect.stringContaining('were dropped'),
    });
  });
});

describe('kernel close', () => {
  it('leaves nothing running: background and foreground commands, sandbox and gateway', async () => {
    const sandbox = execEnv({ exec: OPEN });
    const gateway = execEnv({ exec: { ...OPEN, host: 'gateway' } });
    for (const [env, marker] of [
      [sandbox, '46.5'],
      [gateway, '47.5'],
    ] as const) {
      const run = await env.run();
      await run.call('exec', { command: `sleep ${marker}`, background: true });
      void run.call('exec', { command: `sleep ${marker}1`, yieldMs: 60_000 }).catch(() => undefined);
    }
    for (let i = 0; i < 100 && !((await processRunning('sleep 46.51')) && (await processRunning('sleep 47.51'))); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await processRunning('sleep 46.51')).toBe(true);
    expect(await processRunning('sleep 47.51')).toBe(true);
    await sandbox.close();
    await gateway.close();
    for (const marker of ['sleep 46.5', 'sleep 46.51', 'sleep 47.5', 'sleep 47.51'])
      expect(await processGone(marker)).toBe(true);
  });

  itSandboxed(
    'a sandboxed command cannot leave a detached process behind (setsid, &): the sandbox ends with it',
    async () => {
      const run = await execEnv({ exec: OPEN }).run();
      const out = structured(
        await run.call('exec', {
          command:
            'setsid sleep 48.5 > /dev/null 2>&1 < /dev/null & for i in $(seq 200); do pgrep -f "^sleep 48[.]5$" > /dev/null && echo started && break; sleep 0.05; done',
          yieldMs: 60_000,
        }),
      );
      expect(out).toMatchObject({ status: 'exited', output: 'started\n' });
      expect(await processGone('sleep 48.5')).toBe(true);
    },
  );
});
