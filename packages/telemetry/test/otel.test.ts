import { afterEach, describe, expect, it } from 'vitest';
import { providerRequestEvent, telemetryPlugin } from '@tool-search/telemetry';
import { inMemorySdk, kernelWith, openAIBody, shutdownSdks } from './helpers.js';

afterEach(shutdownSdks);

const otel = inMemorySdk;

async function scriptedRun(providersUnderTest: ReturnType<typeof otel>) {
  const kernel = kernelWith(
    telemetryPlugin({
      meterProvider: providersUnderTest.meterProvider,
      tracerProvider: providersUnderTest.tracerProvider,
      tokenizer: false,
    }),
  );
  const run = await kernel.createRun({ sessionId: 's' });
  run.emit({ type: 'search', queries: ['alpha'], hits: [], origin: 'tool_call' });
  run.emit({ type: 'describe', toolId: null, requested: 'zeta', origin: 'code' });
  run.emit(providerRequestEvent('tools', openAIBody));
  await run.call('alpha', {}, { origin: 'code' });
  await run.call('files_read', {}, { origin: 'tool_call' });
  await run.call('beta', {}, { origin: 'direct' });
  await run.close();
  return run;
}

describe('OpenTelemetry export', () => {
  it('counts calls by source, origin and status', async () => {
    const o = otel();
    await scriptedRun(o);
    const calls = (await o.points('tool_search.calls')).map((p) => ({ ...p.attributes, value: p.value }));
    expect(calls).toEqual(
      expect.arrayContaining([
        { source: 'plugin', origin: 'code', status: 'ok', value: 1 },
        { source: 'mcp', origin: 'tool_call', status: 'ok', value: 1 },
        { source: 'plugin', origin: 'direct', status: 'blocked', value: 1 },
      ]),
    );
  });

  it('counts searches and describes by origin', async () => {
    const o = otel();
    await scriptedRun(o);
    expect((await o.points('tool_search.searches')).map((p) => [p.attributes, p.value])).toEqual([
      [{ origin: 'tool_call' }, 1],
    ]);
    expect((await o.points('tool_search.describes')).map((p) => [p.attributes, p.value])).toEqual([
      [{ origin: 'code' }, 1],
    ]);
  });

  it('records request bytes per part and catalog size by source', async () => {
    const o = otel();
    await scriptedRun(o);
    const request = (await o.points('tool_search.request.bytes')).find((p) => p.attributes.part === 'request');
    expect(request?.value).toMatchObject({ count: 1, sum: Buffer.byteLength(openAIBody) });
    const catalog = Object.fromEntries(
      (await o.points('tool_search.catalog.size')).map((p) => [p.attributes.source, p.value]),
    );
    expect(catalog).toEqual({ core: 1, plugin: 2, mcp: 1, client: 0, skill: 0 });
  });

  it('records beforeToolCall time per plugin', async () => {
    const o = otel();
    await scriptedRun(o);
    const taps = (await o.points('tool_search.hook.duration')).map((p) => p.attributes.plugin);
    expect(taps).toContain('test-blocker');
  });

  it('exports a span per run with a child span per tool call', async () => {
    const o = otel();
    const run = await scriptedRun(o);
    const spans = o.spanExporter.getFinishedSpans();
    const runSpan = spans.find((span) => span.name === 'tool_search.run');
    expect(runSpan?.attributes).toMatchObject({
      'run.id': run.info.runId,
      'session.id': 's',
      'catalog.size': 4,
      'tool_search.calls': 3,
    });
    expect(runSpan?.events.map((event) => event.name)).toEqual(['search', 'describe', 'provider-request']);
    const calls = spans.filter((span) => span.name === 'tool_search.call');
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'tool.id': 'plugin:fake:alpha',
        'tool.source': 'plugin',
        origin: 'code',
        status: 'ok',
      }),
      expect.objectContaining({
        'tool.id': 'mcp:files:files_read',
        'tool.source': 'mcp',
        origin: 'tool_call',
        status: 'ok',
      }),
      expect.objectContaining({
        'tool.id': 'plugin:fake:beta',
        origin: 'direct',
        status: 'blocked',
        'blocked.by': 'test-blocker',
      }),
    ]);
    for (const span of calls) {
      expect(span.parentSpanContext?.spanId).toBe(runSpan?.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(runSpan?.spanContext().traceId);
    }
  });
});
