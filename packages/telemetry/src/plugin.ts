/**
 * The telemetry plugin: observes the kernel through its hooks (H9) and never
 * changes a result. It taps `runStart`, `runEvent`, `afterToolCall` and
 * `runEnd`, and intercepts `beforeToolCall` for call spans and per-tap timing.
 * Every observation becomes a session log entry, an OpenTelemetry metric and
 * a span (or span event), and with a state store a per-session counter.
 */
import { join } from 'node:path';
import type { Span } from '@opentelemetry/api';
import type {
  CallContext,
  KernelPlugin,
  Logger,
  RunEvent,
  RunEventMap,
  RunInfo,
  ToolCall,
  ToolCallOutcome,
  ToolDescriptor,
} from '@tool-search/kernel';
import type { SearchEventResult } from './types.js';
import { silentLogger, errorMessage } from '@tool-search/kernel';
import type {
  CatalogSummary,
  ProviderRequestEntry,
  SessionLogEntry,
  TapTiming,
  ToolCallEntry,
} from '@tool-search/session-log';
import { requestParts, type ProviderRequestEvent } from './events.js';
import { CounterWriter } from './counters.js';
import { otelInstruments, spanStatusError } from './otel.js';
import { PLUGIN_NAME, resolveOptions, type TelemetryOptions } from './options.js';
import { Recorder } from './recorder.js';
import { collectWriteOnly, redact } from './redact.js';
import { searchQueries, searchRank } from './search-quality.js';
import { sessionFileName } from './session-log.js';
import { EntryStore } from './store.js';
import { emptyCatalog, summarizeSession, type TelemetrySummary } from './summary.js';
import { createTokenCounter } from './tokens.js';

export interface TelemetrySnapshot extends TelemetrySummary {
  readonly scope: 'run' | 'session';
  readonly id: string;
  readonly sessionId: string;
}

export interface TelemetryPlugin extends KernelPlugin {
  /** Numbers for a run id or a session id, from entries recorded so far; `undefined` when unknown. */
  snapshot(runOrSessionId: string): TelemetrySnapshot | undefined;
  /** The entries behind a snapshot, in order. */
  entries(runOrSessionId: string): readonly SessionLogEntry[];
  /** The JSONL file of a session (only with `sessionLog: { dir }`). */
  sessionLogFile(sessionId: string): string | undefined;
  /** Waits for entries still being finished (token counts) and written. */
  flush(): Promise<void>;
}

interface RunState {
  /** Absent while no OpenTelemetry provider can record (see `otelInstruments`). */
  readonly span: Span | undefined;
  readonly taps: Map<string, TapTiming>;
  readonly calls: Map<string, { readonly span: Span | undefined; readonly start: number }>;
  /** The latest search's queries and hits (for the rank of a called tool). */
  latestSearch?: readonly SearchEventResult[];
  /** Values of this run's calls at `writeOnly` schema positions (attachment content): replaced in every entry. */
  readonly secrets: Set<string>;
  /** The gateway's `tool-caller` marker for the run's next call: taken by the next call that ends. */
  nextCaller?: RunEventMap['tool-caller'];
}

export function telemetryPlugin(options: TelemetryOptions = {}): TelemetryPlugin {
  const resolved = resolveOptions(options);
  const otel = otelInstruments(resolved.meterProvider, resolved.tracerProvider);
  const tokens = resolved.tokenizer === false ? undefined : createTokenCounter(resolved.tokenizer);
  const store = new EntryStore(resolved.maxSessions, resolved.maxEntriesPerSession);
  let logger: Logger = silentLogger;
  const entries = new Recorder(store, resolved.writer, () => logger);
  // Every entry of a run passes the run's redaction: whatever a plugin's event copied, write-only values stay out.
  const recorder = {
    record(runId: string, entry: SessionLogEntry | Promise<SessionLogEntry | undefined>): void {
      const secrets = runs.get(runId)?.secrets;
      entries.record(
        runId,
        secrets?.size ? Promise.resolve(entry).then((done) => done && redact(done, secrets)) : entry,
      );
    },
    settle: (runId: string) => entries.settle(runId),
    flush: () => entries.flush(),
  };
  const counters = resolved.state ? new CounterWriter(resolved.state, resolved.countersTtlMs, () => logger) : undefined;
  const runs = new Map<string, RunState>();
  const stamp = (run: RunInfo) => ({ ts: new Date().toISOString(), runId: run.runId, sessionId: run.sessionId });

  function onRunStart(run: RunInfo, catalog: readonly ToolDescriptor[]): void {
    const summary = summarizeCatalog(catalog);
    const instruments = otel();
    const span = instruments?.tracer.startSpan('tool_search.run', {
      attributes: {
        'run.id': run.runId,
        'session.id': run.sessionId,
        ...(run.request.agentId ? { 'agent.id': run.request.agentId } : {}),
        ...(run.request.provider ? { provider: run.request.provider } : {}),
        ...(run.request.model ? { model: run.request.model } : {}),
        'catalog.size': summary.total,
      },
    });
    runs.set(run.runId, { span, taps: new Map(), calls: new Map(), secrets: new Set() });
    instruments?.runs.add(1);
    for (const [source, size] of Object.entries(summary.bySource)) instruments?.catalogSize.record(size, { source });
    const { agentId, provider, model } = run.request;
    recorder.record(run.runId, {
      ...stamp(run),
      type: 'run-start',
      ...(agentId ? { agentId } : {}),
      ...(provider ? { provider } : {}),
      ...(model ? { model } : {}),
      catalog: summary,
    });
  }

  function onRunEvent(event: RunEvent, run: RunInfo): void {
    const span = runs.get(run.runId)?.span;
    const secrets = runs.get(run.runId)?.secrets ?? new Set<string>();
    switch (event.type) {
      case 'tool-caller': {
        const state = runs.get(run.runId);
        if (state) state.nextCaller = event;
        return;
      }
      case 'search':
        otel()?.searches.add(1, { origin: event.origin });
        span?.addEvent('search', {
          queries: redact([...event.queries], secrets),
          hits: event.hits.length,
          origin: event.origin,
        });
        onSearch(event, run);
        return;
      case 'describe':
        otel()?.describes.add(1, { origin: event.origin });
        span?.addEvent('describe', { requested: redact(event.requested, secrets), origin: event.origin });
        recorder.record(run.runId, {
          ...stamp(run),
          type: 'describe',
          toolId: event.toolId,
          requested: event.requested,
          origin: event.origin,
        });
        return;
      case 'provider-request':
        return onProviderRequest(event, run, span);
      case 'diagnostic': {
        const { code, level, plugin, hook, toolId } = event.diagnostic;
        recorder.record(run.runId, {
          ...stamp(run),
          type: 'diagnostic',
          code,
          level,
          ...(plugin ? { plugin } : {}),
          ...(hook ? { hook } : {}),
          ...(toolId ? { toolId } : {}),
        });
        return;
      }
      default: {
        // Events other plugins add to RunEventMap: logged as data, never interpreted.
        const { type, ...data } = event as { type: string };
        span?.addEvent(String(type));
        recorder.record(run.runId, { ...stamp(run), type: 'event', event: String(type), data: jsonSafe(data) });
      }
    }
  }

  function onSearch(event: RunEventMap['search'], run: RunInfo): void {
    const state = runs.get(run.runId);
    // Without per-query results (an older searcher), the flat hit list stands for one query.
    const results = event.results ?? [
      { query: event.queries.join(' | '), hits: event.hits, weak: event.hits.length === 0 },
    ];
    if (state) state.latestSearch = results;
    counters?.add(run.sessionId, { searches: 1, zeroHitSearches: event.hits.length === 0 ? 1 : 0 });
    recorder.record(run.runId, {
      ...stamp(run),
      type: 'search',
      queries: event.queries,
      hits: event.hits,
      origin: event.origin,
      ...(event.ranker ? { ranker: { id: event.ranker.id, version: event.ranker.version } } : {}),
      results: searchQueries(results),
    });
  }

  function onProviderRequest(event: ProviderRequestEvent, run: RunInfo, span: Span | undefined): void {
    const bytes = { tools: event.toolsBytes, system: event.systemBytes, request: event.requestBytes };
    const instruments = otel();
    for (const [part, size] of Object.entries(bytes))
      instruments?.requestBytes.record(size, { mode: event.mode, part });
    span?.addEvent('provider-request', {
      mode: event.mode,
      'bytes.request': bytes.request,
      'bytes.tools': bytes.tools,
      'bytes.system': bytes.system,
    });
    // A gateway that sends the parts spares parsing (and re-serializing) a body of megabytes.
    const parts =
      event.tools !== undefined
        ? { tools: event.tools, system: event.system ?? '', toolNames: event.toolNames ?? [] }
        : requestParts(event.body);
    const base = {
      ...stamp(run),
      type: 'provider-request' as const,
      mode: event.mode,
      tools: event.toolNames ?? parts.toolNames,
      bytes,
    };
    counters?.add(run.sessionId, { requests: 1 });
    const finish = async (): Promise<ProviderRequestEntry> => {
      if (!tokens) return { ...base, tokens: null, tokenizer: null };
      try {
        // The body is counted without its tools array, which is added back from the (cached) tools count:
        // a long run re-sends the same tools on every request. BPE merges across that cut are lost (a few tokens).
        const at = parts.tools ? event.body.indexOf(parts.tools) : -1;
        const rest = at >= 0 ? event.body.slice(0, at) + event.body.slice(at + parts.tools.length) : event.body;
        const [toolsTokens, systemTokens, restTokens] = await Promise.all([
          tokens.count(parts.tools),
          tokens.count(parts.system),
          tokens.count(rest),
        ]);
        const counted = { tools: toolsTokens, system: systemTokens, request: restTokens + (at >= 0 ? toolsTokens : 0) };
        for (const [part, count] of Object.entries(counted))
          otel()?.requestTokens.record(count, { mode: event.mode, part });
        counters?.add(run.sessionId, { tokens: counted.request });
        return { ...base, tokens: counted, tokenizer: tokens.name };
      } catch (error) {
        logger.warn('token counting failed; the entry has no token counts', { error: errorMessage(error) });
        return { ...base, tokens: null, tokenizer: null };
      }
    };
    recorder.record(run.runId, finish());
  }

  function onCallStart(call: ToolCall, ctx: CallContext): void {
    const state = runs.get(ctx.run.runId);
    if (state) collectWriteOnly(call.tool.inputSchema, call.args, state.secrets);
    const instruments = otel();
    let span: Span | undefined;
    if (instruments) {
      const { context, trace } = instruments.api;
      const parent = state?.span ? trace.setSpan(context.active(), state.span) : context.active();
      span = instruments.tracer.startSpan(
        'tool_search.call',
        {
          attributes: {
            'tool.id': call.tool.id,
            'tool.name': call.tool.name,
            'tool.source': call.tool.source,
            origin: call.origin,
          },
        },
        parent,
      );
    }
    state?.calls.set(call.callId, { span, start: performance.now() });
  }

  function onCallEnd(call: ToolCall, outcome: ToolCallOutcome, ctx: CallContext): void {
    const state = runs.get(ctx.run.runId);
    const started = state?.calls.get(call.callId);
    state?.calls.delete(call.callId);
    // The gateway runs a turn's calls one by one: the marker is this call's when it names this tool.
    const caller = state?.nextCaller?.toolId === call.tool.id ? state.nextCaller.caller : undefined;
    if (state) state.nextCaller = undefined;
    const durationMs = started ? performance.now() - started.start : 0;
    const attributes = { source: call.tool.source, origin: call.origin, status: outcome.status };
    const instruments = otel();
    instruments?.calls.add(1, attributes);
    instruments?.callDuration.record(durationMs, attributes);
    counters?.add(ctx.run.sessionId, {
      calls: 1,
      errors: outcome.status === 'error' ? 1 : 0,
      blocked: outcome.status === 'blocked' ? 1 : 0,
    });
    if (started?.span) {
      started.span.setAttribute('status', outcome.status);
      if (outcome.status === 'blocked') started.span.setAttribute('blocked.by', outcome.by);
      if (outcome.status === 'error') started.span.setStatus({ code: spanStatusError(), message: outcome.error.code });
      started.span.end();
    }
    const entry: ToolCallEntry = {
      ...stamp(ctx.run),
      type: 'tool-call',
      callId: call.callId,
      toolId: call.tool.id,
      name: call.tool.name,
      source: call.tool.source,
      owner: call.tool.owner,
      origin: call.origin,
      ...(caller ? { caller } : {}),
      status: outcome.status,
      durationMs,
      ...(outcome.status === 'blocked' ? { blockedBy: outcome.by } : {}),
      ...(outcome.status === 'error' ? { errorCode: outcome.error.code } : {}),
      searchRank: searchRank(state?.latestSearch, call.tool.id),
    };
    recorder.record(ctx.run.runId, entry);
  }

  function onTapTimed(plugin: string, ctx: CallContext | undefined, ms: number): void {
    otel()?.tapDuration.record(ms, { hook: 'beforeToolCall', plugin });
    const taps = ctx ? runs.get(ctx.run.runId)?.taps : undefined;
    if (!taps) return;
    const seen = taps.get(plugin);
    taps.set(plugin, { count: (seen?.count ?? 0) + 1, totalMs: (seen?.totalMs ?? 0) + ms });
  }

  async function onRunEnd(run: RunInfo): Promise<void> {
    const state = runs.get(run.runId);
    await recorder.settle(run.runId);
    const found = store.find(run.runId);
    const summary = summarizeSession(found?.scope === 'run' ? found.entries : []);
    const counts = {
      searches: summary.searches,
      describes: summary.describes,
      calls: summary.calls,
      requests: summary.requests,
      requestBytes: summary.requestBytes,
      tokens: summary.tokens,
    };
    recorder.record(run.runId, {
      ...stamp(run),
      type: 'run-end',
      ...counts,
      taps: Object.fromEntries(state?.taps ?? []),
    });
    await recorder.settle(run.runId);
    if (state) {
      for (const pending of state.calls.values()) pending.span?.end();
      state.span?.setAttributes(
        Object.fromEntries(Object.entries(counts).map(([key, value]) => [`tool_search.${key}`, value])),
      );
      state.span?.end();
    }
    runs.delete(run.runId);
  }

  return {
    name: PLUGIN_NAME,
    apply(api) {
      logger = api.logger;
      api.hooks.runStart.tap(onRunStart);
      api.hooks.runEvent.tap(onRunEvent);
      api.hooks.beforeToolCall.intercept({
        name: PLUGIN_NAME,
        call: (call: ToolCall, ctx: CallContext) => onCallStart(call, ctx),
        register: (tap) => ({ ...tap, fn: timed(tap.name, tap.fn as (...args: unknown[]) => unknown, onTapTimed) }),
      });
      api.hooks.afterToolCall.tap(onCallEnd);
      api.hooks.runEnd.tapPromise(onRunEnd);
    },
    snapshot(id) {
      const found = store.find(id);
      return found && { scope: found.scope, id, sessionId: found.sessionId, ...summarizeSession(found.entries) };
    },
    entries: (id) => store.find(id)?.entries ?? [],
    sessionLogFile: (sessionId) => (resolved.logDir ? join(resolved.logDir, sessionFileName(sessionId)) : undefined),
    flush: async () => {
      await recorder.flush();
      await counters?.flush();
    },
  };
}

/** Wraps a `beforeToolCall` tap so its time is reported under its plugin name; the result is untouched. */
function timed(
  plugin: string,
  fn: (...args: unknown[]) => unknown,
  report: (plugin: string, ctx: CallContext | undefined, ms: number) => void,
) {
  return (...args: unknown[]): unknown => {
    const start = performance.now();
    const done = () => report(plugin, args[1] as CallContext | undefined, performance.now() - start);
    let result: unknown;
    try {
      result = fn(...args);
    } catch (error) {
      done();
      throw error;
    }
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  };
}

function jsonSafe(data: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  } catch {
    return { unserializable: true };
  }
}

function summarizeCatalog(catalog: readonly ToolDescriptor[]): CatalogSummary {
  const empty = emptyCatalog();
  const bySource = { ...empty.bySource };
  for (const tool of catalog) bySource[tool.source] = (bySource[tool.source] ?? 0) + 1;
  return {
    total: catalog.length,
    bySource,
    directOnly: catalog.filter((tool) => tool.catalogMode === 'direct-only').length,
  };
}
