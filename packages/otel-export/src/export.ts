/**
 * OpenTelemetry export over OTLP/HTTP (JSON): a tracer provider with a batch
 * span processor and a meter provider with a periodic reader, both sending to
 * the configured collector through the official exporters, with the replica
 * as a resource (`service.name`, `service.instance.id`). Registered as the
 * global providers, so `@tool-search/telemetry` (which only talks to
 * `@opentelemetry/api`) exports through them without knowing this package.
 */
import { metrics, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ConfigError } from '@tool-search/kernel';

/** The config's `telemetry.otlp` block. */
export interface OtlpConfig {
  /** The collector's base URL: traces go to `<endpoint>/v1/traces`, metrics to `<endpoint>/v1/metrics`. */
  readonly endpoint: string;
  /** Sent with every export (an API key, `authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How often metrics are exported. Default 10,000 ms (spans go in batches as they end). */
  readonly exportIntervalMs?: number;
  /** `service.name`. Default `tool-search`. */
  readonly serviceName?: string;
  /**
   * How long one export may take, retries included (the exporters retry a collector that refuses or fails): it also
   * bounds how long `shutdown` waits for a collector that is not there. Default 10,000 ms.
   */
  readonly timeoutMs?: number;
}

export interface OtlpExportOptions {
  /** `service.instance.id`: this replica (`state.replicaId`, `TOOL_SEARCH_REPLICA_ID`). */
  readonly replicaId: string;
  readonly serviceVersion?: string;
  /** Register as the global providers (default true). */
  readonly global?: boolean;
}

export interface OtlpExport {
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider;
  readonly endpoints: { readonly traces: string; readonly metrics: string };
  /** Sends what is pending now (ended spans, current metrics). */
  flush(): Promise<void>;
  /** Flushes, stops both providers and unregisters them. */
  shutdown(): Promise<void>;
}

export const DEFAULT_SERVICE_NAME = 'tool-search';
export const DEFAULT_EXPORT_INTERVAL_MS = 10_000;
export const DEFAULT_EXPORT_TIMEOUT_MS = 10_000;

export function startOtlpExport(config: OtlpConfig, options: OtlpExportOptions): OtlpExport {
  const endpoints = endpointsOf(config.endpoint);
  const headers = { ...config.headers };
  const resource = resourceFromAttributes({
    'service.name': config.serviceName ?? DEFAULT_SERVICE_NAME,
    'service.instance.id': options.replicaId,
    ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
  });
  const timeoutMillis = config.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: endpoints.traces, headers, timeoutMillis }),
        exportTimeoutMillis: timeoutMillis,
      }),
    ],
  });
  const exportIntervalMillis = config.exportIntervalMs ?? DEFAULT_EXPORT_INTERVAL_MS;
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: endpoints.metrics, headers, timeoutMillis }),
    exportIntervalMillis,
    exportTimeoutMillis: Math.min(timeoutMillis, exportIntervalMillis),
  });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  const global = options.global !== false;
  if (global) {
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
  }
  let stopped: Promise<void> | undefined;
  return {
    tracerProvider,
    meterProvider,
    endpoints,
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown() {
      stopped ??= (async () => {
        await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
        if (global) {
          trace.disable();
          metrics.disable();
        }
      })();
      return stopped;
    },
  };
}

function endpointsOf(endpoint: string): { traces: string; metrics: string } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'telemetry.otlp.endpoint',
      'format',
      `telemetry.otlp.endpoint must be the collector's http(s) base URL (e.g. http://127.0.0.1:4318), not ${JSON.stringify(endpoint)}`,
    );
  }
  const base = url.href.replace(/\/+$/, '');
  return { traces: `${base}/v1/traces`, metrics: `${base}/v1/metrics` };
}
