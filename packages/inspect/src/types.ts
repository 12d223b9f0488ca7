/** The JSON shapes the inspect API answers with (the page reads exactly these). */
import type { Diagnostic, Explanation, JsonSchema, PolicyStep, ToolSource } from '@tool-search/kernel';
import type { RankerInfo, SearchResult } from '@tool-search/search';
import type { SessionLogEntry, TelemetrySummary } from '@tool-search/telemetry';
import type { SessionRecord, TranscriptEntry } from '@tool-search/sessions';

/** The run the page looks at: the `--agent/--provider/--model` of the CLI commands. */
export interface InspectRequest {
  readonly agentId?: string;
  readonly provider?: string;
  readonly model?: string;
}

export interface MetaView {
  readonly agents: readonly string[];
  readonly providers: readonly string[];
  readonly modes: readonly string[];
  readonly defaults: InspectRequest;
  readonly demoCatalog: boolean;
  readonly sessions: { readonly dir?: string; readonly store: boolean };
}

export interface CatalogRow {
  readonly id: string;
  readonly name: string;
  readonly source: ToolSource;
  /** The MCP server (owner of an `mcp` tool), else undefined. */
  readonly server?: string;
  readonly owner: string;
  readonly catalogMode: string;
  /** `allowed`: policy lets it through; `denied`: a policy step dropped it. */
  readonly status: 'allowed' | 'denied';
  /** The step that dropped it (denied tools). */
  readonly deniedBy?: PolicyStep;
  /** A fake of the demo catalog (`ToolMeta.demo`): it does nothing. Absent on real tools. */
  readonly demo?: true;
}

/** A source that did not deliver all of its tools: failed, needs `mcp login`, truncated. */
export interface SourceProblem {
  readonly source: string;
  readonly kind: 'failed' | 'auth-required' | 'truncated' | 'other';
  readonly code: string;
  readonly level: string;
  readonly message: string;
  /** The command that fixes it, when there is one (`tool-search mcp login <server>`). */
  readonly fix?: string;
}

export interface CatalogView {
  readonly request: InspectRequest;
  readonly mode: string;
  readonly tools: readonly CatalogRow[];
  readonly problems: readonly SourceProblem[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface ToolView {
  readonly tool: CatalogRow & {
    readonly title?: string;
    readonly description: string;
    readonly inputSchema: JsonSchema;
    readonly outputSchema?: JsonSchema;
  };
  readonly guidance: string;
  readonly explain: Explanation;
}

/** Which words of the query a hit's fields hold, each field with its ranking weight (BM25F). */
export interface ScorePart {
  readonly field: 'name' | 'title' | 'server' | 'description' | 'params';
  readonly weight: number;
  readonly words: readonly string[];
}

export interface SearchView {
  readonly result: SearchResult;
  readonly ranker: RankerInfo;
  /** Per hit, in rank order. */
  readonly parts: readonly (readonly ScorePart[])[];
  /** Why nothing (or nothing good) matched. */
  readonly misses: readonly string[];
  /** Per hit, in rank order: a fake of the demo catalog (it does nothing). */
  readonly demo: readonly boolean[];
}

export interface ExposureModeView {
  readonly mode: string;
  /** The mode that answered (a mode may fall back). */
  readonly answered: string;
  readonly tools: readonly string[];
  readonly system: string;
  readonly bytes: { readonly tools: number; readonly system: number; readonly total: number };
  readonly tokens: { readonly tools: number; readonly system: number; readonly total: number } | null;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface ExposureView {
  readonly request: InspectRequest;
  readonly applied: string;
  readonly modes: readonly ExposureModeView[];
}

export interface SessionListItem {
  readonly id: string;
  readonly origin: 'log' | 'store';
  readonly updated: string;
  readonly entries?: number;
  readonly calls?: number;
  readonly searches?: number;
  readonly zeroHit?: number;
  readonly status?: string;
}

export interface SessionView {
  readonly id: string;
  readonly origin: 'log' | 'store';
  readonly entries: readonly SessionLogEntry[];
  readonly summary?: TelemetrySummary;
  readonly record?: SessionRecord;
  readonly transcript?: readonly TranscriptEntry[];
}

export interface LiveServer {
  readonly name: string;
  readonly state: string;
  readonly transport?: string;
  readonly protocolVersion?: string;
  readonly toolCount?: number;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface LiveView {
  readonly servers: readonly LiveServer[];
  /** Bumped every time a server says its tool list changed. */
  readonly version: number;
}
