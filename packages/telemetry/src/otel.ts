/**
 * The OpenTelemetry instruments, made through `@opentelemetry/api` only: the
 * providers come from the options or from the global API (a no-op until an
 * SDK registers one), so the plugin costs little when nothing exports.
 */
import {
  metrics,
  trace,
  type Counter,
  type Gauge,
  type Histogram,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

export const INSTRUMENTATION_SCOPE = '@tool-search/telemetry';
const VERSION = '0.1.0';

export interface Instruments {
  readonly tracer: Tracer;
  /** Runs started. */
  readonly runs: Counter;
  /** `search` events, by `origin`. */
  readonly searches: Counter;
  /** `describe` events, by `origin`. */
  readonly describes: Counter;
  /** Finished tool calls, by `source`, `origin`, `status`. */
  readonly calls: Counter;
  /** Tool call duration in ms, by `source`, `origin`, `status`. */
  readonly callDuration: Histogram;
  /** Provider request size in bytes, by `mode` and `part` (`request`, `tools`, `system`). */
  readonly requestBytes: Histogram;
  /** Provider request tokens, by `mode` and `part`. */
  readonly requestTokens: Histogram;
  /** Catalog size of the latest run, by `source`. */
  readonly catalogSize: Gauge;
  /** Time in each `beforeToolCall` tap in ms, by `plugin`. */
  readonly tapDuration: Histogram;
}

export function createInstruments(meterProvider?: MeterProvider, tracerProvider?: TracerProvider): Instruments {
  const meter = (meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE, VERSION);
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE, VERSION);
  return {
    tracer,
    runs: meter.createCounter('tool_search.runs', { description: 'Runs started' }),
    searches: meter.createCounter('tool_search.searches', { description: 'Catalog searches' }),
    describes: meter.createCounter('tool_search.describes', { description: 'Tool describes' }),
    calls: meter.createCounter('tool_search.calls', { description: 'Finished tool calls' }),
    callDuration: meter.createHistogram('tool_search.call.duration', { description: 'Tool call duration', unit: 'ms' }),
    requestBytes: meter.createHistogram('tool_search.request.bytes', {
      description: 'Bytes sent to the provider per request',
      unit: 'By',
    }),
    requestTokens: meter.createHistogram('tool_search.request.tokens', {
      description: 'Tokens sent to the provider per request (o200k_base)',
    }),
    catalogSize: meter.createGauge('tool_search.catalog.size', { description: 'Tools in the effective catalog' }),
    tapDuration: meter.createHistogram('tool_search.hook.duration', {
      description: 'Time in beforeToolCall taps',
      unit: 'ms',
    }),
  };
}
