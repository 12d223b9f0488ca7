/**
 * Session log entries: one JSON object per line, one line per event, every
 * entry stamped with `ts`, `type`, `runId` and `sessionId`.
 */
import type { CallOrigin, DiagnosticLevel, ToolSource } from '@tool-search/kernel';

/** A query of a logged search. */
export interface SearchQueryEntry {
  readonly query: string;
  readonly hitCount: number;
  /** Ranked hit ids (ids only; the log never holds descriptions). */
  readonly hits: readonly string[];
  /** Nothing matched well: the hits are weak partial matches. */
  readonly weak: boolean;
  /** No hit at all. */
  readonly zeroHit: boolean;
}

/** Rank (1-based) of the called tool in the run's latest search, or why there is none. */
export type SearchRank = number | 'not searched' | 'not in results';

export interface CatalogSummary {
  readonly total: number;
  readonly bySource: Readonly<Record<ToolSource, number>>;
  /** Tools that are always exposed (`catalogMode: 'direct-only'`). */
  readonly directOnly: number;
}

export interface TokenCounts {
  readonly tools: number;
  readonly system: number;
  readonly request: number;
}

export interface ByteCounts {
  readonly tools: number;
  readonly system: number;
  readonly request: number;
}

export interface TapTiming {
  readonly count: number;
  readonly totalMs: number;
}

interface EntryBase {
  /** ISO 8601 time the event happened. */
  readonly ts: string;
  readonly runId: string;
  readonly sessionId: string;
}

export interface RunStartEntry extends EntryBase {
  readonly type: 'run-start';
  readonly agentId?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly catalog: CatalogSummary;
}

export interface SearchEntry extends EntryBase {
  readonly type: 'search';
  readonly queries: readonly string[];
  readonly hits: readonly string[];
  readonly origin: CallOrigin;
  /** The ranking that answered (`{ id, version }`), when the searcher said. */
  readonly ranker?: { readonly id: string; readonly version: string };
  /** Per query: hit count, hit ids, weak and zero-hit flags, when the searcher said. */
  readonly results?: readonly SearchQueryEntry[];
}

export interface DescribeEntry extends EntryBase {
  readonly type: 'describe';
  readonly toolId: string | null;
  readonly requested: string;
  readonly origin: CallOrigin;
}

export interface ToolCallEntry extends EntryBase {
  readonly type: 'tool-call';
  readonly callId: string;
  readonly toolId: string;
  readonly name: string;
  readonly source: ToolSource;
  readonly owner: string;
  readonly origin: CallOrigin;
  /** Set when the provider's sandbox made the call (programmatic tool calling through the gateway). */
  readonly caller?: 'programmatic';
  readonly status: 'ok' | 'blocked' | 'pending' | 'error';
  readonly durationMs: number;
  /** The plugin that blocked the call (status `blocked`). */
  readonly blockedBy?: string;
  /** The error code (status `error`). */
  readonly errorCode?: string;
  /** Rank of this tool in the run's latest search (1 = first hit), 'not in results', or 'not searched'. */
  readonly searchRank?: SearchRank;
}

export interface ProviderRequestEntry extends EntryBase {
  readonly type: 'provider-request';
  readonly mode: string;
  /** Tool names in the request, as the provider saw them. */
  readonly tools: readonly string[];
  readonly bytes: ByteCounts;
  /** `null` when token counting is off or failed. */
  readonly tokens: TokenCounts | null;
  readonly tokenizer: string | null;
}

export interface DiagnosticEntry extends EntryBase {
  readonly type: 'diagnostic';
  readonly code: string;
  readonly level: DiagnosticLevel;
  readonly plugin?: string;
  readonly hook?: string;
  readonly toolId?: string;
}

/** A run event this plugin does not know (a plugin's own, e.g. a loop warning), kept as JSON. */
export interface PluginEventEntry extends EntryBase {
  readonly type: 'event';
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface RunEndEntry extends EntryBase {
  readonly type: 'run-end';
  readonly searches: number;
  readonly describes: number;
  readonly calls: number;
  readonly requests: number;
  readonly requestBytes: number;
  readonly tokens: number;
  /** Time spent in each `beforeToolCall` tap, keyed by plugin name. */
  readonly taps: Readonly<Record<string, TapTiming>>;
}

export type SessionLogEntry =
  | RunStartEntry
  | SearchEntry
  | DescribeEntry
  | ToolCallEntry
  | ProviderRequestEntry
  | DiagnosticEntry
  | PluginEventEntry
  | RunEndEntry;

export type SessionLogEntryType = SessionLogEntry['type'];
