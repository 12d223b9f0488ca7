import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin, type ToolCall } from '@tool-search/kernel';
import { dropper, ok, source, tool } from './helpers.js';

const strict = tool('write', {
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' }, mode: { enum: ['a', 'w'] } },
    required: ['path', 'content'],
    additionalProperties: false,
  },
});

describe('run.call', () => {
  it('runs a tool in the effective catalog by name and by id', async () => {
    const run = await createKernel({ plugins: [source('s', [tool('read')])] }).createRun();
    await expect(run.call('read', { value: 'x' })).resolves.toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'OK read {"value":"x"}' }] },
    });
    await expect(run.call('core:core:read', {})).resolves.toMatchObject({ status: 'ok' });
  });

  it('refuses a tool dropped by policy, by name and by exact id, with UNKNOWN_TOOL', async () => {
    let ran = false;
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('read'),
          tool('exec', {
            execute: () => {
              ran = true;
              return ok('ran');
            },
          }),
        ]),
        dropper('p', ['exec']),
      ],
    }).createRun();
    await expect(run.call('exec', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    await expect(run.call('core:core:exec', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    expect(ran).toBe(false);
  });

  it('suggests the closest allowed ids on a miss, never a dropped one', async () => {
    const run = await createKernel({
      plugins: [
        source('s', [tool('read_file'), tool('read_dir'), tool('write_file'), tool('read_secret')]),
        dropper('p', ['read_secret']),
      ],
    }).createRun();
    const error = await run.call('read_fil', {}).catch((e: { suggestions: string[] }) => e);
    expect((error as { suggestions: string[] }).suggestions[0]).toBe('core:core:read_file');
    expect((error as { suggestions: string[] }).suggestions).not.toContain('core:core:read_secret');
  });

  it('rejects bad arguments before the tool runs, naming the JSON path', async () => {
    let ran = false;
    const run = await createKernel({
      plugins: [
        source('s', [
          {
            ...strict,
            execute: () => {
              ran = true;
              return ok('ran');
            },
          },
        ]),
      ],
    }).createRun();
    await expect(run.call('write', { path: 'a' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
      errors: [expect.objectContaining({ path: '/content', rule: 'required' })],
    });
    await expect(run.call('write', { path: 'a', content: 'b', mode: 'x' })).rejects.toMatchObject({
      errors: [expect.objectContaining({ path: '/mode', rule: 'enum' })],
    });
    await expect(run.call('write', { path: 1, content: 'b' })).rejects.toMatchObject({
      errors: [expect.objectContaining({ path: '/path' })],
    });
    await expect(run.call('write', [1])).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
    expect(ran).toBe(false);
  });

  // Issue 16: every violation, unknown keys included, in the error and in its message (no "and 1 more").
  it('reports every argument violation at once, unknown keys included', async () => {
    const run = await createKernel({ plugins: [source('s', [strict])] }).createRun();
    const error = (await run
      .call('write', { path: 1, mode: 'x', colour: 'red', size: 2 })
      .catch((e: unknown) => e)) as { code: string; message: string; errors: { path: string; rule: string }[] };
    expect(error.code).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
    const found = error.errors.map((issue) => `${issue.path} ${issue.rule}`).sort();
    expect(found).toEqual([
      '/colour additionalProperties',
      '/content required',
      '/mode enum',
      '/path type',
      '/size additionalProperties',
    ]);
    for (const issue of error.errors) expect(error.message).toContain(issue.path);
  });

  it('hands the tool plain data: getters and proxies are read once, functions dropped', async () => {
    let received: unknown;
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('read', {
            execute: (args) => {
              received = args;
              return ok('x');
            },
          }),
        ]),
      ],
    }).createRun();
    let reads = 0;
    const tricky = new Proxy(
      { value: 'v' },
      {
        get: (t, k) => {
          reads++;
          return Reflect.get(t, k);
        },
      },
    );
    await run.call('read', tricky);
    expect(received).toEqual({ value: 'v' });
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(reads).toBeGreaterThan(0);
  });

  it('a beforeToolCall block comes back as the outcome, tagged with the plugin, and the tool never runs', async () => {
    let ran = false;
    const guard: KernelPlugin = {
      name: 'guard',
      apply: ({ hooks }) => hooks.beforeToolCall.tap(() => ({ action: 'block', reason: 'nope' })),
    };
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('read', {
            execute: () => {
              ran = true;
              return ok('x');
            },
          }),
        ]),
        guard,
      ],
    }).createRun();
    await expect(run.call('read', {})).resolves.toMatchObject({ status: 'blocked', reason: 'nope', by: 'guard' });
    expect(ran).toBe(false);
  });

  it('the first decision wins; a replacement result is returned instead of running the tool', async () => {
    const replace: KernelPlugin = {
      name: 'cache',
      apply: ({ hooks }) => hooks.beforeToolCall.tap(() => ({ action: 'replace', result: ok('cached') })),
    };
    const block: KernelPlugin = {
      name: 'later',
      apply: ({ hooks }) => hooks.beforeToolCall.tap(() => ({ action: 'block', reason: 'too late' })),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), replace, block] }).createRun();
    await expect(run.call('read', {})).resolves.toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'cached' }] },
    });
  });

  it('a beforeToolCall tap that throws blocks the call (fail closed)', async () => {
    const broken: KernelPlugin = {
      name: 'broken',
      apply: ({ hooks }) =>
        hooks.beforeToolCall.tapPromise(async () => {
          throw new Error('x');
        }),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), broken] }).createRun();
    await expect(run.call('read', {})).resolves.toMatchObject({ status: 'blocked', by: 'broken' });
  });

  it('taps see validated, frozen arguments and the call origin', async () => {
    let seen: ToolCall | undefined;
    const spy: KernelPlugin = {
      name: 'spy',
      apply: ({ hooks }) =>
        hooks.beforeToolCall.tap((call) => {
          seen = call;
          return undefined;
        }),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), spy] }).createRun();
    await run.call('read', { value: 'a' }, { origin: 'code' });
    expect(seen?.origin).toBe('code');
    expect(Object.isFrozen(seen?.args)).toBe(true);
  });

  it('stopRun blocks the call and stops the run', async () => {
    const breaker: KernelPlugin = {
      name: 'breaker',
      apply: ({ hooks }) => hooks.beforeToolCall.tap(() => ({ action: 'block', reason: 'loop', stopRun: true })),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), breaker] }).createRun();
    await expect(run.call('read', {})).resolves.toMatchObject({ status: 'blocked' });
    await expect(run.call('read', {})).rejects.toMatchObject({ code: ErrorCode.RUN_STOPPED });
  });

  it('a tool that throws becomes an error outcome; a tool without execute is pending', async () => {
    const run = await createKernel({
      plugins: [
        source('s', [
          tool('bad', {
            execute: () => {
              throw new Error('kaput');
            },
          }),
          {
            name: 'client_thing',
            source: 'client',
            owner: 'client',
            description: 'x',
            inputSchema: { type: 'object' },
          },
        ]),
      ],
    }).createRun();
    await expect(run.call('bad', {})).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.TOOL_EXECUTION_FAILED },
    });
    await expect(run.call('client_thing', { a: 1 })).resolves.toMatchObject({
      status: 'pending',
      name: 'client_thing',
      args: { a: 1 },
    });
  });

  it('times out and aborts calls', async () => {
    const run = await createKernel({
      plugins: [source('s', [tool('hang', { execute: () => new Promise(() => undefined) })])],
    }).createRun();
    await expect(run.call('hang', {}, { timeoutMs: 20 })).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.TOOL_TIMEOUT },
    });
    const controller = new AbortController();
    const pending = run.call('hang', {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).resolves.toMatchObject({ status: 'error', error: { code: ErrorCode.TOOL_CALL_ABORTED } });
  });

  it('afterToolCall observes every outcome; a closed run refuses calls', async () => {
    const statuses: string[] = [];
    const observer: KernelPlugin = {
      name: 'obs',
      apply: ({ hooks }) =>
        hooks.afterToolCall.tap((_call, outcome) => {
          statuses.push(outcome.status);
        }),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), observer] }).createRun();
    await run.call('read', {});
    expect(statuses).toEqual(['ok']);
    await run.close();
    await expect(run.call('read', {})).rejects.toMatchObject({ code: ErrorCode.RUN_CLOSED });
  });
});
