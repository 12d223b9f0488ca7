/**
 * The metrics plugin: one prom-client Registry per front end, fed from the kernel's run hooks (it never changes a
 * result), plus gauges read at scrape time (state store health, sessions, catalog age). `route` answers
 * `GET /metrics` in the Prometheus text format; the front end mounts it behind its own key/loopback checks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {} from '@tool-search/search';
import type { KernelPlugin, RunEvent, ToolCall, ToolCallOutcome } from '@tool-search/kernel';
import { stateHealth, type StateStore } from '@tool-search/state';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CatalogWatch } from './catalog.js';

export interface MetricsOptions {
  /** The `front_end` label on every series (`gateway`, `mcp`). */
  readonly frontEnd: string;
  /** The front end's state store: `tool_search_state_up` pings it at each scrape. */
  readonly state?: StateStore;
  /** Sessions this front end holds, read at each scrape (set later with `setSessions` when known only then). */
  readonly sessions?: () => number | Promise<number>;
}

/** A front end's extra route: `true` when it answered. */
export type MetricsRoute = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface MetricsPlugin extends KernelPlugin {
  readonly registry: Registry;
  setSessions(count: () => number | Promise<number>): void;
  /** `GET /metrics`. */
  readonly route: MetricsRoute;
}

export const METRICS_PATH = '/metrics';
/** Search latency buckets, in seconds: an in-process index answers in well under 10 ms, a reranker in ~100 ms. */
const SEARCH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export function metricsPlugin(options: MetricsOptions): MetricsPlugin {
  const registry = new Registry();
  registry.setDefaultLabels({ front_end: options.frontEnd });
  let sessions = options.sessions;
  const catalog = new CatalogWatch();
  const turns = new Counter({
    name: 'tool_search_turns_total',
    help: 'Runs started (a gateway turn, an MCP run).',
    registers: [registry],
  });
  const calls = new Counter({
    name: 'tool_search_tool_calls_total',
    help: 'Tool calls by outcome; source "control" is a control tool (tool_search, tool_call, code).',
    labelNames: ['source', 'status'],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'tool_search_tool_call_errors_total',
    help: 'Tool calls that failed, by error code.',
    labelNames: ['code'],
    registers: [registry],
  });
  const searches = new Histogram({
    name: 'tool_search_search_duration_seconds',
    help: 'Time to rank one search (a batch counts once), by where it came from.',
    labelNames: ['origin'],
    buckets: SEARCH_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'tool_search_catalog_tools',
    help: 'Tools in the catalog the latest run started with.',
    registers: [registry],
    collect() {
      this.set(catalog.size);
    },
  });
  new Gauge({
    name: 'tool_search_catalog_generation',
    help: 'Catalog changes this replica saw (a new set of tool ids at run start); not shared across replicas.',
    registers: [registry],
    collect() {
      this.set(catalog.generation);
    },
  });
  new Gauge({
    name: 'tool_search_catalog_age_seconds',
    help: 'Seconds since the catalog last changed (0 before the first run).',
    registers: [registry],
    collect() {
      if (catalog.changedAt !== undefined) this.set((Date.now() - catalog.changedAt) / 1000);
    },
  });
  if (options.state) {
    const state = options.state;
    new Gauge({
      name: 'tool_search_state_up',
      help: 'Whether the state store answered a ping at this scrape (1) or not (0).',
      labelNames: ['kind'],
      registers: [registry],
      async collect() {
        const health = await stateHealth(state);
        this.set({ kind: health.state.kind }, health.state.ok ? 1 : 0);
      },
    });
  }
  new Gauge({
    name: 'tool_search_sessions',
    help: 'Sessions this front end holds (gateway: agent sessions; MCP: client sessions held here).',
    registers: [registry],
    async collect() {
      if (!sessions) return;
      const read = sessions;
      const count = await Promise.resolve()
        .then(read)
        // A store that is down must not fail the whole scrape: state_up says so, and this gauge keeps its last value.
        .catch(() => undefined);
      if (count !== undefined) this.set(count);
    },
  });

  const onCallEnd = (call: ToolCall, outcome: ToolCallOutcome) => {
    calls.inc({ source: call.tool.source, status: outcome.status });
    if (outcome.status === 'error') errors.inc({ code: outcome.error.code });
  };
  const onEvent = (event: RunEvent) => {
    if (event.type === 'control-call') calls.inc({ source: 'control', status: event.isError ? 'error' : event.status });
    // `durationMs` comes from emitters that time the ranking (the control tools); an untimed search is not observed.
    if (event.type === 'search' && typeof event.durationMs === 'number')
      searches.observe({ origin: event.origin }, event.durationMs / 1000);
  };

  return {
    name: '@tool-search/metrics',
    registry,
    setSessions: (count) => void (sessions = count),
    route: async (req, res) => {
      if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://front').pathname !== METRICS_PATH) return false;
      const text = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return true;
    },
    apply({ hooks }) {
      hooks.runStart.tap((_run, tools) => {
        turns.inc();
        catalog.see(tools);
      });
      hooks.runEvent.tap(onEvent);
      hooks.afterToolCall.tap(onCallEnd);
    },
  };
}
