/**
 * Folds session log entries into the numbers a report needs. The in-process
 * `snapshot()` and the e2e (reading the JSONL file) share this one function,
 * so both always agree.
 */
import type { CallOrigin, ToolSource } from '@tool-search/kernel';
import type { CatalogSummary, SessionLogEntry, TapTiming, ToolCallEntry } from '@tool-search/session-log';
import { SearchQualityFold, type SearchQualitySummary } from './search-quality.js';

export interface CalledTool {
  readonly id: string;
  readonly name: string;
  readonly source: ToolSource;
  readonly origin: CallOrigin;
  readonly status: ToolCallEntry['status'];
}

export interface TelemetrySummary {
  readonly runs: number;
  readonly searches: number;
  readonly describes: number;
  readonly calls: number;
  /** Every finished tool call, in order, with its id, source and origin. */
  readonly toolsCalled: readonly CalledTool[];
  /** Provider requests seen (`provider-request` events). */
  readonly requests: number;
  /** Bytes of all provider requests; `toolsBytes`/`systemBytes` are the tools and system parts. */
  readonly requestBytes: number;
  readonly toolsBytes: number;
  readonly systemBytes: number;
  /** Tokens (o200k_base) of all provider requests; `toolsTokens`/`systemTokens` are the parts. */
  readonly tokens: number;
  readonly toolsTokens: number;
  readonly systemTokens: number;
  /** The catalog of the latest run. */
  readonly catalog: CatalogSummary;
  /** Tool names in the first provider request: the schemas the model saw from the start. */
  readonly exposedTools: readonly string[];
  /** Time in `beforeToolCall` taps, keyed by plugin name. */
  readonly taps: Readonly<Record<string, TapTiming>>;
  /** Zero-hit and weak rates of searched queries, mean rank of called tools in the latest search. */
  readonly searchQuality: SearchQualitySummary;
}

export function emptyCatalog(): CatalogSummary {
  return { total: 0, bySource: { core: 0, plugin: 0, mcp: 0, client: 0, skill: 0 }, directOnly: 0 };
}

export function summarizeSession(entries: readonly SessionLogEntry[]): TelemetrySummary {
  let runs = 0;
  let searches = 0;
  let describes = 0;
  let requests = 0;
  const bytes = { request: 0, tools: 0, system: 0 };
  const tokens = { request: 0, tools: 0, system: 0 };
  let catalog = emptyCatalog();
  let exposedTools: readonly string[] | undefined;
  const toolsCalled: CalledTool[] = [];
  const taps: Record<string, TapTiming> = {};
  const quality = new SearchQualityFold();

  for (const entry of entries) {
    switch (entry.type) {
      case 'run-start':
        runs++;
        catalog = entry.catalog;
        break;
      case 'search':
        searches++;
        quality.addSearch(entry.results ?? [{ zeroHit: entry.hits.length === 0, weak: false }]);
        break;
      case 'describe':
        describes++;
        break;
      case 'tool-call':
        toolsCalled.push({
          id: entry.toolId,
          name: entry.name,
          source: entry.source,
          origin: entry.origin,
          status: entry.status,
        });
        quality.addCall(entry.searchRank);
        break;
      case 'provider-request':
        requests++;
        exposedTools ??= entry.tools;
        bytes.request += entry.bytes.request;
        bytes.tools += entry.bytes.tools;
        bytes.system += entry.bytes.system;
        tokens.request += entry.tokens?.request ?? 0;
        tokens.tools += entry.tokens?.tools ?? 0;
        tokens.system += entry.tokens?.system ?? 0;
        break;
      case 'run-end':
        for (const [name, timing] of Object.entries(entry.taps)) {
          const seen = taps[name];
          taps[name] = { count: (seen?.count ?? 0) + timing.count, totalMs: (seen?.totalMs ?? 0) + timing.totalMs };
        }
        break;
      case 'diagnostic':
      case 'event':
        break;
    }
  }
  return {
    runs,
    searches,
    describes,
    calls: toolsCalled.length,
    toolsCalled,
    requests,
    requestBytes: bytes.request,
    toolsBytes: bytes.tools,
    systemBytes: bytes.system,
    tokens: tokens.request,
    toolsTokens: tokens.tools,
    systemTokens: tokens.system,
    catalog,
    exposedTools: exposedTools ?? [],
    taps,
    searchQuality: quality.summary(),
  };
}
