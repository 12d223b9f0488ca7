import { expect, it } from 'vitest';
import { createKernel, type KernelPlugin, type RunEvent } from '@tool-search/kernel';
import { loopDetectionPlugin } from '../src/index.js';

it('publishes each finding as a run event, so telemetry logs it', async () => {
  const events: RunEvent[] = [];
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)),
  };
  const source: KernelPlugin = {
    name: 'src',
    apply: ({ hooks }) =>
      hooks.listTools.tap((sink) =>
        sink.add({
          name: 'ping',
          source: 'core',
          owner: 'core',
          description: 'ping',
          inputSchema: { type: 'object' },
          execute: () => ({ content: [{ type: 'text', text: 'pong' }] }),
        }),
      ),
  };
  const loop = loopDetectionPlugin({
    tools: {
      loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 10 },
    },
  });
  const run = await createKernel({ plugins: [source, loop, observer] }).createRun({ sessionId: 's1' });
  for (let i = 0; i < 3; i++) await run.call('ping', {});
  const findings = events
    .filter((e) => e.type === 'loop-detection')
    .map((e) => (e as { warning: { level: string } }).warning.level);
  expect(findings).toEqual(['warning', 'critical']);
});
