// The public surface of @tool-search/session-log: named exports only. @tool-search/telemetry writes these logs and
// re-exports all of it; this package exists so readers (the test-kit) need not depend on telemetry.
export { createSessionLogWriter, readSessionLog, sessionFileName, sessionLogEntries } from './session-log.js';
export type { SessionLogWriter, JsonlSessionLog, SessionLogReadOptions } from './session-log.js';
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
  SearchQueryEntry,
  SearchRank,
  SessionLogEntry,
  SessionLogEntryType,
  TapTiming,
  TokenCounts,
  ToolCallEntry,
} from './entries.js';
export { SessionLogErrors } from './errors.js';
