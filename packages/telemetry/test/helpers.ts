import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createKernel, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const fakeTool = (
  name: string,
  source: ToolDefinition['source'] = 'plugin',
  owner = 'fake',
): ToolDefinition => ({
  name,
  source,
  owner,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  execute: (args) => ({ content: [{ type: 'text', text: `FAKE_TOOL_OK ${name} ${JSON.stringify(args)}` }] }),
});

/** A source with plugin, mcp and core tools. */
export const catalogSource: KernelPlugin = {
  name: 'test-source',
  apply({ hooks }) {
    hooks.listTools.tap((sink) => {
      sink.add([
        fakeTool('alpha'),
        fakeTool('beta'),
        fakeTool('files_read', 'mcp', 'files'),
        { ...fakeTool('now', 'core', 'core'), catalogMode: 'direct-only' },
      ]);
    });
  },
};

/** A `beforeToolCall` tap that blocks calls to `beta`. */
export const betaBlocker: KernelPlugin = {
  name: 'test-blocker',
  apply({ hooks }) {
    hooks.beforeToolCall.tapPromise(async (call) =>
      call.tool.name === 'beta' ? { action: 'block', reason: 'beta is blocked' } : undefined,
    );
  },
};

export const tempDir = () => mkdtemp(join(tmpdir(), 'telemetry-'));

export function kernelWith(...plugins: KernelPlugin[]) {
  return createKernel({ plugins: [catalogSource, betaBlocker, ...plugins] });
}

export const openAIBody = JSON.stringify({
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'You can search tools.' },
    { role: 'user', content: 'hello world' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'tool_search', description: 'Search tools', parameters: { type: 'object' } },
    },
  ],
});

const sdks: { shutdown(): Promise<void> }[] = [];

/** OpenTelemetry providers with in-memory exporters (metrics read on demand, spans kept); `shutdownSdks` ends them. */
export function inMemorySdk() {
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  sdks.push(meterProvider, tracerProvider);
  /** The data points of one metric, after a flush. */
  const points = async (name: string): Promise<DataPoint<unknown>[]> => {
    await reader.forceFlush();
    const scopes = metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [];
    const found = scopes.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === name);
    return (found?.dataPoints ?? []) as DataPoint<unknown>[];
  };
  return { meterProvider, tracerProvider, spanExporter, points };
}

export async function shutdownSdks(): Promise<void> {
  await Promise.all(sdks.splice(0).map((provider) => provider.shutdown()));
}
