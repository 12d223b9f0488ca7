/**
 * Payload types of the kernel's hooks. Everything a plugin receives or returns
 * is declared here; `ToolMeta`, `RunRequest` and `RunEventMap` are open for
 * declaration merging so plugins extend them without `any`.
 */
import type { ErrorCode } from './errors.js';

/** A JSON Schema object (draft-07 or 2020-12). */
export type JsonSchema = { readonly [key: string]: unknown };

export type ToolSource = 'core' | 'plugin' | 'mcp' | 'client';

/** `catalog`: found through search. `direct-only`: never in a search catalog, always visible. */
export type CatalogMode = 'catalog' | 'direct-only';

/** MCP tool annotations, carried as they came. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  readonly [key: string]: unknown;
}

/**
 * Plugin-owned data attached to a descriptor. Augment it:
 * `declare module '@tool-search/kernel' { interface ToolMeta { mcpServer?: string } }`
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ToolMeta {}

/** What the kernel knows about a tool. Frozen once listed. */
export interface ToolDescriptor {
  /** `<source>:<owner>:<name>`, stable across runs. */
  readonly id: string;
  readonly name: string;
  readonly source: ToolSource;
  /** The plugin id, MCP server name, `core` or `client` that owns the tool. */
  readonly owner: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly catalogMode: CatalogMode;
  readonly meta?: Readonly<ToolMeta>;
}

export type ToolContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string; readonly mimeType?: string }
  | {
      readonly type: 'resource';
      readonly resource: { readonly uri: string; readonly text?: string; readonly blob?: string; readonly mimeType?: string };
    };

/** What a tool returns (the MCP `CallToolResult` shape). */
export interface ToolResult {
  readonly content: readonly ToolContent[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

export interface ExecuteContext {
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly run: RunInfo;
}

export type ToolExecutor = (args: Record<string, unknown>, ctx: ExecuteContext) => Promise<ToolResult> | ToolResult;

/**
 * What a source contributes in `listTools`. The kernel derives the id and
 * freezes the descriptor. Without `execute` the tool is executed by the caller
 * of the run (client tools): a call returns `{ status: 'pending' }`, or, made
 * inside a control tool or code, is handed to `RunOptions.onClientCall`.
 */
export interface ToolDefinition {
  readonly name: string;
  readonly source: ToolSource;
  readonly owner: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly catalogMode?: CatalogMode;
  readonly meta?: ToolMeta;
  readonly execute?: ToolExecutor;
}

export type DiagnosticLevel = 'error' | 'warning' | 'info';

/** A problem or note about a run, with the plugin and hook it came from. */
export interface Diagnostic {
  readonly code: ErrorCode;
  readonly level: DiagnosticLevel;
  readonly message: string;
  readonly plugin?: string;
  readonly hook?: string;
  readonly toolId?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * What a run is created for. Augment it for plugin inputs:
 * `declare module '@tool-search/kernel' { interface RunRequest { clientTools?: ClientTool[] } }`
 */
export interface RunRequest {
  readonly agentId?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly sessionId?: string;
  /** The session runs in a sandbox: the sandbox policy step applies. */
  readonly sandboxed?: boolean;
}

export interface RunInfo {
  readonly runId: string;
  readonly sessionId: string;
  readonly request: Readonly<RunRequest>;
}

/** Where a call came from: the direct tool, a control tool, the code bridge, a hidden directory name. */
export type CallOrigin = 'direct' | 'tool_call' | 'code' | 'directory' | 'api';

export interface ToolCall {
  readonly callId: string;
  readonly tool: ToolDescriptor;
  /** Validated arguments (a frozen deep copy: taps cannot change what runs). */
  readonly args: Readonly<Record<string, unknown>>;
  readonly origin: CallOrigin;
}

/** The answer of a `beforeToolCall` tap: block with a reason, or replace the result. */
export type CallDecision =
  | { readonly action: 'block'; readonly reason: string; readonly stopRun?: boolean }
  | { readonly action: 'replace'; readonly result: ToolResult };

export type ToolCallOutcome =
  | { readonly status: 'ok'; readonly callId: string; readonly toolId: string; readonly result: ToolResult }
  | {
      readonly status: 'blocked';
      readonly callId: string;
      readonly toolId: string;
      readonly reason: string;
      readonly by: string;
      /** What the model is shown, when a control tool (tool_call) made the blocked call and wrote a result for it. */
      readonly result?: ToolResult;
    }
  | {
      readonly status: 'pending';
      readonly callId: string;
      readonly toolId: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | {
      readonly status: 'error';
      readonly callId: string;
      readonly toolId: string;
      readonly error: { readonly code: ErrorCode; readonly message: string };
      /** What the model is shown, when a control tool (tool_call) made the failed call and wrote a result for it. */
      readonly result?: ToolResult;
    };

/** A step in a tool's policy trace: which rule kept or dropped it. */
export interface PolicyStep {
  readonly step: string;
  readonly kept: boolean;
  readonly rule?: string;
  readonly plugin?: string;
}

export interface Explanation {
  readonly requested: string;
  readonly toolId?: string;
  readonly known: boolean;
  readonly inCatalog: boolean;
  readonly steps: readonly PolicyStep[];
}

/** Events plugins publish on a run (`run.emit`) and observe (`runEvent`). Open for augmentation. */
export interface RunEventMap {
  search: {
    readonly type: 'search';
    readonly queries: readonly string[];
    readonly hits: readonly string[];
    readonly origin: CallOrigin;
    /** Per query, in order: its ranked hit ids and whether nothing matched it well (search-quality telemetry). */
    readonly results?: readonly SearchEventResult[];
    /** The ranking that answered, e.g. `{ id: 'bm25f', version: '2' }`. */
    readonly ranker?: { readonly id: string; readonly version: string };
  };
  describe: { readonly type: 'describe'; readonly toolId: string | null; readonly requested: string; readonly origin: CallOrigin };
  diagnostic: { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic };
  /** What was sent to the model provider for this run (emitted by the gateway; measured by telemetry). */
  'provider-request': {
    readonly type: 'provider-request';
    readonly mode: string;
    /** The exact JSON body sent. */
    readonly body: string;
    readonly toolsBytes: number;
    readonly systemBytes: number;
    readonly requestBytes: number;
    /** Names of the tools the model saw in this request. */
    readonly toolNames?: readonly string[];
    /** The tools array as it appears in `body` and the system text, so consumers need not parse the body again. */
    readonly tools?: string;
    readonly system?: string;
  };
}
export type RunEvent = RunEventMap[keyof RunEventMap];

/** A tool as the model sees it, before provider-specific formatting. */
export interface ExposedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Set for a catalog tool exposed directly; calls go to `run.call(toolId)`. */
  readonly toolId?: string;
  /** Set for control tools (`tool_search`, `tool_search_code`, …). */
  readonly handler?: ControlHandler;
}

export interface ControlContext {
  readonly signal: AbortSignal;
  readonly run: RunApi;
}

export type ControlHandler = (args: Record<string, unknown>, ctx: ControlContext) => Promise<ToolResult>;

/** One query of a `search` event. */
export interface SearchEventResult {
  readonly query: string;
  readonly hits: readonly string[];
  /** No hit matched well (weak partial matches, or none at all). */
  readonly weak: boolean;
}

/** The waterfall value of `materialize`: modes add tools, system text and a hidden-name resolver. */
export interface ExposureDraft {
  readonly mode: string;
  tools: ExposedTool[];
  system: string[];
  /** Resolves a name the model called that is not exposed (directory mode) to a catalog tool id; may throw a coded error (e.g. AMBIGUOUS_TOOL). */
  resolveHidden?: (name: string) => string | undefined;
  /** Ask the kernel to materialize another mode instead (with a `MODE_FALLBACK` diagnostic). */
  fallback?: { readonly mode: string; readonly reason: string };
}

/** The run surface handed to modes and control handlers. */
export interface RunApi {
  readonly info: RunInfo;
  /** Effective catalog (policy applied), `catalog` and `direct-only` tools alike. */
  readonly catalog: readonly ToolDescriptor[];
  readonly diagnostics: readonly Diagnostic[];
  tool(nameOrId: string): ToolDescriptor | undefined;
  call(nameOrId: string, args: unknown, options?: CallOptions): Promise<ToolCallOutcome>;
  emit(event: RunEvent): void;
  /** Guidance text for these tools (effective catalog only), bounded; '' when none applies. */
  guidanceFor(toolIds: readonly string[], budgetChars?: number): string;
  readonly signal: AbortSignal;
}

export interface CallOptions {
  readonly origin?: CallOrigin;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface MaterializeContext {
  readonly run: RunApi;
  /** Tools that may enter a search catalog (`catalogMode: 'catalog'`). */
  readonly searchable: readonly ToolDescriptor[];
  /** Tools that must stay visible in every mode. */
  readonly directOnly: readonly ToolDescriptor[];
}

/** Usage text ("skill") a plugin contributes for some of its tools. */
export interface ToolGuidance {
  /** A short heading, e.g. "GitHub issues". */
  readonly title: string;
  /** The usage text; sanitized and cut at 1,000 characters. */
  readonly text: string;
  /** Names or ids of the tools it is about; it reaches the model only when one of them is visible or described. */
  readonly tools: readonly string[];
}

export interface CatalogSink {
  /** Adds tools to the run's catalog. Tools of a source that later fails are discarded. */
  add(tools: ToolDefinition | readonly ToolDefinition[]): void;
  /** Contributes usage guidance for some of this source's tools. */
  guidance(guidance: ToolGuidance): void;
  /** Reports a problem without failing the source. */
  diagnostic(diagnostic: Omit<Diagnostic, 'plugin' | 'hook'>): void;
}

export interface ListContext {
  readonly run: RunInfo;
  readonly signal: AbortSignal;
}

export interface PolicyContext {
  readonly run: RunInfo;
  /** Every listed tool, before any policy step (for allowlists that must know what exists). */
  readonly listed: readonly ToolDescriptor[];
  /** Error diagnostics from listing (a source failed or timed out, a tool was dropped): the listed set may be incomplete. */
  readonly listingErrors: readonly Diagnostic[];
  /** Records why a rule kept or dropped a tool; shown by `run.explain`. */
  trace(toolId: string, step: PolicyStep): void;
  diagnostic(diagnostic: Omit<Diagnostic, 'plugin' | 'hook'>): void;
}

export interface CallContext {
  readonly run: RunInfo;
  readonly signal: AbortSignal;
  /** Publishes a run event (e.g. a loop warning) to `runEvent` observers such as telemetry. */
  emit(event: RunEvent): void;
}
