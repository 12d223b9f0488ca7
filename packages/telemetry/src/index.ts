// The public surface of @tool-search/telemetry: named exports only.
export { telemetryPlugin } from './plugin.js';
export type { TelemetryPlugin, TelemetrySnapshot } from './plugin.js';
export type { TelemetryOptions } from './options.js';
export { providerRequestEvent, requestParts } from './events.js';
export type { ProviderRequestEvent, RequestParts } from './events.js';
export { createSessionLogWriter, readSessionLog, sessionFileName, sessionLogEntries } from './session-log.js';
export type { SessionLogWriter, JsonlSessionLog, SessionLogReadOptions } from './session-log.js';
export { summarizeSession } from './summary.js';
export type { TelemetrySummary, CalledTool } from './summary.js';
export { createTokenCounter, preloadTokenizer } from './tokens.js';
export { searchRank, SearchQualityFold } from './search-quality.js';
export { EvalSetCollector, evalSetFromLog } from './eval-set.js';
export type { LoggedEvalQuery } from './eval-set.js';
export type { SearchQualitySummary, SearchQueryEntry, SearchRank } from './search-quality.js';
export type { TokenCounter, TokenizerName } from './tokens.js';
export { INSTRUMENTATION_SCOPE } from './otel.js';
export { sessionCounters, COUNTER_FIELDS, DEFAULT_COUNTERS_TTL_MS } from './counters.js';
export type { SessionCounters, CounterField } from './counters.js';
export type {
  ByteCounts,
  CatalogSummary,
  DescribeEntry,
  DiagnosticEntry,
  PluginEventEntry,
  ProviderRequestEntry,
  RunEndEntry,
  RunStartEntry,
  SearchEntry,
  SessionLogEntry,
  SessionLogEntryType,
  TapTiming,
  TokenCounts,
  ToolCallEntry,
} from '@tool-search/session-log';
export { TelemetryErrors } from './errors.js';
