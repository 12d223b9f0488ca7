/**
 * Payload types of the kernel's hooks: tools, calls, diagnostics and run
 * events here, the contexts the hooks and modes are handed in hook-types.ts
 * (re-exported below), so everything a plugin receives or returns comes from
 * this file. `ToolMeta`, `RunRequest` and `RunEventMap` are open for
 * declaration merging so plugins extend them without `any`.
 */
import type { AnyErrorCode } from './error-registry.js';

/** A JSON Schema object (draft-07 or 2020-12). */
export type JsonSchema = { readonly [key: string]: unknown };

/** `skill`: an MCP server's skill (SEP-2640), listed like a tool: calling it reads the skill's files. */
export type ToolSource = 'core' | 'plugin' | 'mcp' | 'client' | 'skill';

/**
 * `catalog`: found through search. `direct-only`: never in a search catalog, always visible. `hidden`: never in a
 * search catalog nor an exposure, and not by name: only a front end calls it, by id with origin `api` (an MCP App's
 * app-only tool, which its app calls through `serve mcp`); any other origin gets UNKNOWN_TOOL.
 */
export type CatalogMode = 'catalog' | 'direct-only' | 'hidden';

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
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, plugins add fields by declaration merging
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
      readonly resource: {
        readonly uri: string;
        readonly text?: string;
        readonly blob?: string;
        readonly mimeType?: string;
      };
    };

/** What a tool returns (the MCP `CallToolResult` shape). */
export interface ToolResult {
  readonly content: readonly ToolContent[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** MCP `_meta` of the result, carried as the tool sent it. */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * What the front end that received a call hands down to the tool that runs it
 * (e.g. where a downstream server's progress and requests go). Set through
 * `CallOptions.scope`; control tools and the code bridge pass it on. Augment it:
 * `declare module '@tool-search/kernel' { interface CallScope { mcp?: McpCallForwarding } }`
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, plugins add fields by declaration merging
export interface CallScope {}

export interface ExecuteContext {
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly run: RunInfo;
  /** The caller's scope, when the front end gave one. */
  readonly scope?: Readonly<CallScope>;
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
  readonly code: AnyErrorCode;
  readonly level: DiagnosticLevel;
  readonly message: string;
  readonly plugin?: string;
  readonly hook?: string;
  readonly toolId?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  /** What was thrown, when the diagnostic reports a failure (e.g. `OBSERVER_FAILED`); non-enumerable, as on `Error`. */
  readonly cause?: unknown;
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
      readonly error: { readonly code: AnyErrorCode; readonly message: string };
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

/**
 * Events plugins publish on a run (`run.emit`) and observe (`runEvent`). Open for augmentation: a package declares
 * its own events by declaration merging (`search` and `describe` are `@tool-search/search`'s, `provider-request` `@tool-search/telemetry`'s):
 * `declare module '@tool-search/kernel' { interface RunEventMap { 'my-event': { readonly type: 'my-event' } } }`.
 */
export interface RunEventMap {
  diagnostic: { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic };
  /** A control tool call itself (`tool_search_code`, `tool_call`, …), with what it did on the run (emitted by the exposure). */
  'control-call': {
    readonly type: 'control-call';
    readonly name: string;
    readonly mode: string;
    readonly status: ToolCallOutcome['status'];
    /** The call answered (`ok`) with a result that says it failed (a code run that threw). */
    readonly isError?: true;
    readonly searches: number;
    readonly describes: number;
    readonly calls: number;
  };
}
export type RunEvent = RunEventMap[keyof RunEventMap];

export type {
  ExposedTool,
  ControlContext,
  ControlHandler,
  ExposureDraft,
  RunApi,
  CallOptions,
  MaterializeContext,
  ToolGuidance,
  CatalogSink,
  ListContext,
  PolicyContext,
  CallContext,
} from './hook-types.js';
