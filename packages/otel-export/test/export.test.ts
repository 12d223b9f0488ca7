// OTLP/HTTP export to a loopback receiver that decodes the JSON it gets: spans, metrics and the replica as resource.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { telemetryPlugin } from '@tool-search/telemetry';
import { fakeTool, startOtlpReceiver, toolSource, type OtlpReceiver } from '@tool-search/testing';
import { startOtlpExport, type OtlpExport } from '@tool-search/otel-export';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const source = toolSource([fakeTool('alpha', 'plugin', 'fake', 'The alpha tool')]);

async function setup(
  config: Partial<Parameters<typeof startOtlpExport>[0]> = {},
): Promise<{ receiver: OtlpReceiver; otel: OtlpExport }> {
  const receiver = await startOtlpReceiver();
  cleanup.push(() => receiver.close());
  const otel = startOtlpExport(
    { endpoint: receiver.url, exportIntervalMs: 3_600_000, ...config },
    { replicaId: 'gw-a' },
  );
  cleanup.push(() => otel.shutdown());
  return { receiver, otel };
}

/** One run through a kernel whose telemetry plugin uses the global providers (as the preset builds it). */
async function oneRun(kernel = globalKernel()): Promise<void> {
  const run = await kernel.createRun({ sessionId: 'session-1' });
  run.emit({ type: 'search', queries: ['alpha'], hits: [], origin: 'tool_call' });
  await run.call('alpha', {});
  await run.close();
  await kernel.close();
}

function globalKernel() {
  return createKernel({ plugins: [source, telemetryPlugin({ tokenizer: false })] });
}

describe('OTLP/HTTP export', () => {
  it("sends the telemetry plugin's spans and metrics as OTLP JSON, with service.name and the replica id", async () => {
    const { receiver, otel } = await setup({
      serviceName: 'tool-search-test',
      headers: { authorization: 'Bearer collector-key' },
    });
    await oneRun();
    await otel.flush();
    expect(receiver.rejected).toEqual([]);
    const resource = { 'service.name': 'tool-search-test', 'service.instance.id': 'gw-a' };
    const run = receiver.spans.find((s) => s.name === 'tool_search.run');
    expect(run).toMatchObject({
      resource,
      attributes: { 'session.id': 'session-1', 'tool_search.calls': 1, 'tool_search.searches': 1 },
    });
    expect(receiver.spans.find((s) => s.name === 'tool_search.call')).toMatchObject({
      resource,
      attributes: { 'tool.name': 'alpha', status: 'ok' },
    });
    const calls = receiver.metrics.find((m) => m.name === 'tool_search.calls');
    expect(calls).toMatchObject({ resource, points: [{ value: 1, attributes: { source: 'plugin', status: 'ok' } }] });
    expect(receiver.metrics.find((m) => m.name === 'tool_search.searches')?.points[0]?.value).toBe(1);
    expect(receiver.headers.every((h) => h.authorization === 'Bearer collector-key')).toBe(true);
  });

  it('an SDK registered after the plugin was created still gets its spans and metrics', async () => {
    const kernel = globalKernel(); // as a front end may: the plugin first, the exporter once its config is read
    const { receiver, otel } = await setup();
    await oneRun(kernel);
    await otel.flush();
    const run = receiver.spans.find((s) => s.name === 'tool_search.run');
    expect(run).toMatchObject({ attributes: { 'session.id': 'session-1', 'tool_search.calls': 1 } });
    expect(receiver.spans.find((s) => s.name === 'tool_search.call')).toMatchObject({
      attributes: { 'tool.name': 'alpha', status: 'ok' },
    });
    expect(receiver.metrics.find((m) => m.name === 'tool_search.calls')?.points[0]?.value).toBe(1);
    expect(receiver.metrics.find((m) => m.name === 'tool_search.runs')?.points[0]?.value).toBe(1);
  });

  it('exports metrics on the configured interval without a flush', async () => {
    const { receiver } = await setup({ exportIntervalMs: 200 });
    await oneRun();
    await vi.waitFor(() => expect(receiver.metrics.some((m) => m.name === 'tool_search.calls')).toBe(true), {
      timeout: 10_000,
      interval: 100,
    });
  });

  it('shutdown sends what is still pending (ended spans, last metrics)', async () => {
    const receiver = await startOtlpReceiver();
    cleanup.push(() => receiver.close());
    const otel = startOtlpExport({ endpoint: `${receiver.url}/`, exportIntervalMs: 3_600_000 }, { replicaId: 'gw-b' });
    await oneRun();
    expect(receiver.spans).toEqual([]);
    await otel.shutdown();
    expect(receiver.spans.map((s) => s.resource['service.instance.id'])).toContain('gw-b');
    expect(receiver.metrics.map((m) => m.resource['service.name'])).toContain('tool-search');
  });

  it('a collector that is not there costs nothing but the data: runs go on and shutdown returns', async () => {
    const receiver = await startOtlpReceiver();
    const url = receiver.url;
    await receiver.close(); // nothing listens there now
    // The exporters retry a refused connection until `timeoutMs` (default 10 s) has passed; shutdown waits for that.
    const otel = startOtlpExport({ endpoint: url, exportIntervalMs: 3_600_000, timeoutMs: 500 }, { replicaId: 'gw-c' });
    await oneRun();
    const stopping = Date.now();
    await otel.shutdown();
    // Left to its default the same shutdown takes ~9 s (backoff between retries); a tenfold margin for a loaded machine.
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });

  it('an endpoint that is not an http(s) URL is a CONFIG_INVALID naming telemetry.otlp.endpoint', () => {
    for (const endpoint of ['collector:4318', 'ftp://collector', '']) {
      expect(() => startOtlpExport({ endpoint }, { replicaId: 'x' })).toThrow(
        expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: 'telemetry.otlp.endpoint' }),
      );
    }
  });
});
