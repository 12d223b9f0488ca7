/**
 * Session log entries: one JSON object per line, one line per event, every entry stamped with `ts`, `type`, `runId`
 * and `sessionId`. Declared in `@tool-search/session-log`, re-exported here under the same names.
 */
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
