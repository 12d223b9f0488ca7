import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Diagnostic, type KernelPlugin, type RunEvent } from '@tool-search/kernel';
import { source, tool } from './helpers.js';

/** An afterToolCall observer that throws `thrown` (synchronously, or as a rejected promise). */
function failingObserver(name: string, thrown: unknown, style: 'sync' | 'promise' = 'sync'): KernelPlugin {
  return {
    name,
    apply: ({ hooks }) =>
      style === 'sync'
        ? hooks.afterToolCall.tap(() => {
            throw thrown;
          })
        : hooks.afterToolCall.tapPromise(() => Promise.reject(thrown)),
  };
}

function recordingObserver(seen: string[]): KernelPlugin {
  return {
    name: 'recording-observer',
    apply: ({ hooks }) =>
      hooks.afterToolCall.tap((call, outcome) => void seen.push(`${call.tool.id}:${outcome.status}`)),
  };
}

function diagnosticEvents(events: RunEvent[]): Diagnostic[] {
  return events.flatMap((event) => (event.type === 'diagnostic' ? [event.diagnostic] : []));
}

function eventLog(events: RunEvent[]): KernelPlugin {
  return { name: 'event-log', apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)) };
}

describe('an afterToolCall observer that throws', () => {
  it.each(['sync', 'promise'] as const)(
    '(%s) keeps the tool outcome, is reported as OBSERVER_FAILED naming it, with the cause',
    async (style) => {
      const thrown = new Error('observer broke');
      const seen: string[] = [];
      const events: RunEvent[] = [];
      const kernel = createKernel({
        plugins: [
          source('s', [tool('read')]),
          failingObserver('bad-observer', thrown, style),
          recordingObserver(seen),
          eventLog(events),
        ],
      });
      const run = await kernel.createRun();
      const outcome = await run.call('read', { value: 'x' });
      expect(outcome).toMatchObject({
        status: 'ok',
        toolId: 'core:core:read',
        result: { content: [{ text: 'OK read {"value":"x"}' }] },
      });
      const reported = run.diagnostics.filter((d) => d.hook === 'afterToolCall');
      expect(reported).toEqual([
        expect.objectContaining({
          code: ErrorCode.OBSERVER_FAILED,
          level: 'warning',
          plugin: 'bad-observer',
          toolId: 'core:core:read',
          details: expect.objectContaining({ status: 'ok' }),
        }),
      ]);
      expect(reported[0]!.cause).toBe(thrown);
      expect(JSON.parse(JSON.stringify(reported[0]))).not.toHaveProperty('cause');
      expect(run.diagnostics.map((d) => d.code)).not.toContain(ErrorCode.TOOL_EXECUTION_FAILED);
      // The observers after the failing one still ran, and the failure went out as a run event.
      expect(seen).toEqual(['core:core:read:ok']);
      expect(diagnosticEvents(events).map((d) => d.code)).toEqual([ErrorCode.OBSERVER_FAILED]);
      await kernel.close();
    },
  );

  it("keeps a failed tool's own code, and the thrown value even when it is not an Error", async () => {
    const broken = tool('broken', {
      execute: () => {
        throw new Error('tool broke');
      },
    });
    const kernel = createKernel({
      plugins: [source('s', [broken]), failingObserver('string-thrower', 'not an error')],
    });
    const run = await kernel.createRun();
    const exposure = await run.exposure('direct');
    await expect(exposure.call('broken', {})).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.TOOL_EXECUTION_FAILED, message: 'tool broke' },
    });
    const reported = run.diagnostics.filter((d) => d.code === ErrorCode.OBSERVER_FAILED);
    expect(reported).toEqual([
      expect.objectContaining({
        plugin: 'string-thrower',
        toolId: 'core:core:broken',
        details: expect.objectContaining({ status: 'error' }),
      }),
    ]);
    expect(reported[0]!.cause).toBe('not an error');
    await kernel.close();
  });

  it('reports each failing observer once per call', async () => {
    const kernel = createKernel({
      plugins: [
        source('s', [tool('read')]),
        failingObserver('first', new Error('a')),
        failingObserver('second', new Error('b'), 'promise'),
      ],
    });
    const run = await kernel.createRun();
    await run.call('read', {});
    await run.call('read', {});
    expect(run.diagnostics.filter((d) => d.code === ErrorCode.OBSERVER_FAILED).map((d) => d.plugin)).toEqual([
      'first',
      'second',
      'first',
      'second',
    ]);
    await kernel.close();
  });
});
