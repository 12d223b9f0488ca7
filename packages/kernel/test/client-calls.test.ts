import {
  createKernel,
  ErrorCode,
  withCallStatus,
  type ClientCall,
  type KernelPlugin,
  type ToolDefinition,
} from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { ok, source, tool } from './helpers.js';

const askUser: ToolDefinition = {
  name: 'ask_user',
  source: 'client',
  owner: 'client',
  description: 'Asks the user',
  inputSchema: { type: 'object' },
};

/** A mode with one control tool that calls a tool for the model, the way tool_call does. */
function controlMode(name = 'tool_call'): KernelPlugin {
  return {
    name: 'test-mode',
    apply({ hooks }) {
      hooks.materialize.for('test').tap((draft) => {
        draft.tools.push({
          name,
          description: 'calls a tool',
          inputSchema: { type: 'object' },
          handler: async (args, ctx) => {
            const outcome = await ctx.run.call(String(args.id), args.args ?? {}, {
              origin: 'tool_call',
              signal: ctx.signal,
            });
            if (outcome.status === 'ok') return outcome.result;
            if (outcome.status === 'error')
              return withCallStatus(ok(`failed: ${outcome.error.code}`), {
                status: 'error',
                toolId: outcome.toolId,
                error: outcome.error,
              });
            return ok(outcome.status);
          },
        });
        return draft;
      });
    },
  };
}

describe('client tool calls made inside a control tool or code', () => {
  it('are handed to the run owner, and the client answer comes back as the call result', async () => {
    const handed: ClientCall[] = [];
    const run = await createKernel({ plugins: [source('s', [askUser])] }).createRun(
      {},
      { onClientCall: (call) => handed.push(call) },
    );
    const outcome = run.call('ask_user', { q: 'why?' }, { origin: 'tool_call' });
    await Promise.resolve();
    expect(handed).toMatchObject([
      { toolId: 'client:client:ask_user', name: 'ask_user', args: { q: 'why?' }, origin: 'tool_call' },
    ]);
    expect(run.pendingClientCalls).toHaveLength(1);
    expect(run.resolveClientCall(handed[0]!.callId, ok('because'))).toBe(true);
    await expect(outcome).resolves.toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'because' }] },
    });
    expect(run.pendingClientCalls).toEqual([]);
    expect(run.resolveClientCall(handed[0]!.callId, ok('again'))).toBe(false);
  });

  it('fail with CLIENT_TOOL_NOT_EXECUTABLE when the front end cannot hand them back', async () => {
    const run = await createKernel({ plugins: [source('s', [askUser])] }).createRun();
    for (const origin of ['tool_call', 'code'] as const) {
      await expect(run.call('ask_user', {}, { origin })).resolves.toMatchObject({
        status: 'error',
        error: { code: ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE },
      });
    }
  });

  it('stay pending for the model own call (direct, directory, api), with or without an owner', async () => {
    const run = await createKernel({ plugins: [source('s', [askUser])] }).createRun(
      {},
      { onClientCall: () => undefined },
    );
    for (const origin of ['direct', 'directory', 'api'] as const) {
      await expect(run.call('ask_user', {}, { origin })).resolves.toMatchObject({
        status: 'pending',
        name: 'ask_user',
      });
    }
  });

  it('end with TOOL_CALL_ABORTED when the caller gives up (codeTimeoutMs, run closed)', async () => {
    const run = await createKernel({ plugins: [source('s', [askUser])] }).createRun(
      {},
      { onClientCall: () => undefined },
    );
    const controller = new AbortController();
    const outcome = run.call('ask_user', {}, { origin: 'code', signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    await expect(outcome).resolves.toMatchObject({ status: 'error', error: { code: ErrorCode.TOOL_CALL_ABORTED } });
    expect(run.pendingClientCalls).toEqual([]);
  });
});

describe('control tools and the exposure', () => {
  it('a tool_call whose inner call failed reports that status at the top level', async () => {
    const failing = tool('broken', {
      execute: () => {
        throw new Error('kaput');
      },
    });
    const run = await createKernel({ plugins: [source('s', [failing, tool('fine')]), controlMode()] }).createRun();
    const exposure = await run.exposure('test');
    await expect(exposure.call('tool_call', { id: 'broken' })).resolves.toMatchObject({
      status: 'error',
      toolId: 'control:test:tool_call',
      error: { code: ErrorCode.TOOL_EXECUTION_FAILED },
      result: { content: [{ type: 'text', text: 'failed: TOOL_EXECUTION_FAILED' }] },
    });
    await expect(exposure.call('tool_call', { id: 'fine' })).resolves.toMatchObject({ status: 'ok' });
  });

  it('reports the control call itself as a control-call event with its search, describe and call counts', async () => {
    const events: unknown[] = [];
    const observer: KernelPlugin = {
      name: 'observer',
      apply: ({ hooks }) => hooks.runEvent.tap((event) => void (event.type === 'control-call' && events.push(event))),
    };
    const failing = tool('broken', {
      execute: () => {
        throw new Error('kaput');
      },
    });
    const run = await createKernel({
      plugins: [source('s', [failing, tool('fine')]), controlMode(), observer],
    }).createRun();
    const exposure = await run.exposure('test');
    await exposure.call('tool_call', { id: 'fine' });
    await exposure.call('tool_call', { id: 'broken' });
    expect(events).toEqual([
      { type: 'control-call', name: 'tool_call', mode: 'test', status: 'ok', searches: 0, describes: 0, calls: 1 },
      { type: 'control-call', name: 'tool_call', mode: 'test', status: 'error', searches: 0, describes: 0, calls: 1 },
    ]);
  });

  it('marks a control call whose ok result says it failed (a code run that threw) with isError', async () => {
    // Issue 41: the inspect page showed such a code run as a green "ok"; the event now says it failed.
    const events: unknown[] = [];
    const observer: KernelPlugin = {
      name: 'observer',
      apply: ({ hooks }) => hooks.runEvent.tap((event) => void (event.type === 'control-call' && events.push(event))),
    };
    const soft = tool('soft', { execute: () => ({ content: [{ type: 'text', text: 'Error: boom' }], isError: true }) });
    const run = await createKernel({ plugins: [source('s', [soft]), controlMode(), observer] }).createRun();
    const exposure = await run.exposure('test');
    await expect(exposure.call('tool_call', { id: 'soft' })).resolves.toMatchObject({ status: 'ok' });
    expect(events).toEqual([
      {
        type: 'control-call',
        name: 'tool_call',
        mode: 'test',
        status: 'ok',
        isError: true,
        searches: 0,
        describes: 0,
        calls: 1,
      },
    ]);
  });

  it('a tool result cannot claim a status by its shape', async () => {
    const liar = tool('liar', {
      execute: () => ({ content: [], isError: true, structuredContent: { status: 'error', error: { code: 'X' } } }),
    });
    const run = await createKernel({ plugins: [source('s', [liar]), controlMode()] }).createRun();
    await expect((await run.exposure('test')).call('tool_call', { id: 'liar' })).resolves.toMatchObject({
      status: 'ok',
    });
  });

  it('refuses a client tool named like a control tool of the mode with CLIENT_TOOL_COLLISION', async () => {
    const clash: ToolDefinition = { ...askUser, name: 'tool_call' };
    const run = await createKernel({ plugins: [source('s', [tool('read'), clash]), controlMode()] }).createRun();
    await expect(run.exposure('test')).rejects.toMatchObject({
      code: ErrorCode.CLIENT_TOOL_COLLISION,
      details: { controlTool: 'tool_call', mode: 'test' },
    });
    // Direct mode has no control tools: nothing is shadowed there.
    await expect(run.exposure('direct')).resolves.toMatchObject({ mode: 'direct' });
  });
});
