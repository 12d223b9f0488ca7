/**
 * The OpenTelemetry instruments, made through `@opentelemetry/api` only: the providers come from the options or from
 * the global API (a no-op until an SDK registers one), so the plugin costs little when nothing exports.
 *
 * The API (45 CommonJS files) is required on use, not at import: `otelInstruments` loads it only once providers were
 * given or an SDK has registered a global one, and until then answers `undefined` (what the no-op providers would
 * record: nothing). Instruments follow the global providers: an SDK registered after the plugin was created gets the
 * spans and the metrics of the runs that start after it (the API's global meter provider has no proxy, so meters
 * made before would stay no-ops).
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Counter, Gauge, Histogram, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';

type Api = typeof OtelApi;
const require = createRequire(import.meta.url);
let loaded: Api | undefined;
const otelApi = (): Api => {
  loaded ??= require('@opentelemetry/api') as Api;
  return loaded;
};

/**
 * Where every copy of `@opentelemetry/api` 1.x keeps its global providers (its `global-utils`: the key is the API's
 * major version, so copies share one registry). Read, never written: only to learn whether anything registered.
 */
const GLOBAL_API = Symbol.for('opentelemetry.js.api.1');

function globalRegistered(): boolean {
  const registry = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[GLOBAL_API];
  return registry?.trace !== undefined || registry?.metrics !== undefined;
}

/**
 * The instruments to record with now, or `undefined` while nothing can receive them (no providers given, no global
 * SDK registered). Remade when the global providers change (an SDK registered, or disabled and another registered).
 */
export function otelInstruments(
  meterProvider?: MeterProvider,
  tracerProvider?: TracerProvider,
): () => Instruments | undefined {
  let made: { meters: MeterProvider; tracers: TracerProvider; instruments: Instruments } | undefined;
  return () => {
    if (!meterProvider && !tracerProvider && !globalRegistered()) return undefined;
    const api = otelApi();
    const meters = meterProvider ?? api.metrics.getMeterProvider();
    const tracers = tracerProvider ?? api.trace.getTracerProvider();
    if (made?.meters !== meters || made.tracers !== tracers)
      made = { meters, tracers, instruments: createInstruments(api, meters, tracers) };
    return made.instruments;
  };
}

/** `SpanStatusCode.ERROR`, for a span that exists (so the API is loaded). */
export function spanStatusError(): OtelApi.SpanStatusCode {
  return otelApi().SpanStatusCode.ERROR;
}

export const INSTRUMENTATION_SCOPE = '@tool-search/telemetry';
const VERSION = '0.1.0';

export interface Instruments {
  /** The API the instruments came from (span context, status codes). */
  readonly api: Api;
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

function createInstruments(api: Api, meterProvider: MeterProvider, tracerProvider: TracerProvider): Instruments {
  const meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE, VERSION);
  const tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE, VERSION);
  return {
    api,
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
