/**
 * Without providers in its options the plugin records through the global OpenTelemetry API, which it loads only once
 * an SDK registered one (`otelInstruments`). Whenever the SDK registers, before or after the plugin is created, the
 * runs that start after it are exported whole: spans (a call span under its run span) and metrics. A run that
 * started before any SDK records nothing, as the no-op providers would; its session log is complete either way.
 */
import { metrics, trace } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetryPlugin, type TelemetryPlugin } from '@tool-search/telemetry';
import { inMemorySdk, kernelWith, shutdownSdks } from './helpers.js';

afterEach(async () => {
  trace.disable();
  metrics.disable();
  await shutdownSdks();
});

/** An SDK with in-memory exporters, registered as the global providers. */
function registerSdk() {
  const sdk = inMemorySdk();
  expect(trace.setGlobalTracerProvider(sdk.tracerProvider)).toBe(true);
  expect(metrics.setGlobalMeterProvider(sdk.meterProvider)).toBe(true);
  return sdk;
}

async function oneRun(telemetry: TelemetryPlugin, sessionId: string) {
  const kernel = kernelWith(telemetry);
  const run = await kernel.createRun({ sessionId });
  run.emit({ type: 'search', queries: ['alpha'], hits: [], origin: 'tool_call' });
  await run.call('alpha', {}, { origin: 'code' });
  await run.close();
  await kernel.close();
}

/** The run and call spans of one session: the call's parent is the run, in one trace. */
function sessionSpans(exporter: InMemorySpanExporter, sessionId: string) {
  const spans = exporter.getFinishedSpans();
  const run = spans.find((span) => span.name === 'tool_search.run' && span.attributes['session.id'] === sessionId);
  const calls = spans.filter(
    (span) => span.name === 'tool_search.call' && span.parentSpanContext?.spanId === run?.spanContext().spanId,
  );
  return { run, calls };
}

describe('the global OpenTelemetry SDK', () => {
  it('registered before the plugin is created: spans and metrics', async () => {
    const sdk = registerSdk();
    await oneRun(telemetryPlugin({ tokenizer: false }), 'before');
    const { run, calls } = sessionSpans(sdk.spanExporter, 'before');
    expect(run?.attributes).toMatchObject({ 'tool_search.calls': 1, 'tool_search.searches': 1 });
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'tool.name': 'alpha', status: 'ok' }),
    ]);
    expect((await sdk.points('tool_search.calls')).map((point) => point.value)).toEqual([1]);
    expect((await sdk.points('tool_search.searches')).map((point) => point.value)).toEqual([1]);
  });

  it('registered after the plugin is created: the runs after it get spans and metrics', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    await oneRun(telemetry, 'no-sdk-yet'); // nothing can receive it: recorded in the session log only
    expect(telemetry.snapshot('no-sdk-yet')).toMatchObject({ calls: 1, searches: 1 });
    const sdk = registerSdk();
    await oneRun(telemetry, 'after');
    const { run, calls } = sessionSpans(sdk.spanExporter, 'after');
    expect(run?.attributes).toMatchObject({ 'tool_search.calls': 1 });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.spanContext().traceId).toBe(run?.spanContext().traceId);
    expect(sdk.spanExporter.getFinishedSpans().some((span) => span.attributes['session.id'] === 'no-sdk-yet')).toBe(
      false,
    );
    expect((await sdk.points('tool_search.calls')).map((point) => point.value)).toEqual([1]);
    expect((await sdk.points('tool_search.runs')).map((point) => point.value)).toEqual([1]);
  });

  it('replaced (disabled, another registered): the new SDK gets what follows', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    const first = registerSdk();
    await oneRun(telemetry, 'first');
    trace.disable();
    metrics.disable();
    const second = registerSdk();
    await oneRun(telemetry, 'second');
    expect(sessionSpans(first.spanExporter, 'first').calls).toHaveLength(1);
    expect(sessionSpans(second.spanExporter, 'second').calls).toHaveLength(1);
    expect(sessionSpans(second.spanExporter, 'first').run).toBeUndefined();
    expect((await second.points('tool_search.calls')).map((point) => point.value)).toEqual([1]);
  });
});
