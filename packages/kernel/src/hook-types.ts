/**
 * What modes, control tools and the kernel's hook taps are handed: the exposure a mode builds, the run surface
 * (`RunApi`) and the context of each hook. Split from types.ts (the tool, call and event shapes) to keep each file
 * one screen of one subject; types.ts re-exports everything here.
 */
import type {
  CallOrigin,
  CallScope,
  Diagnostic,
  JsonSchema,
  PolicyStep,
  RunEvent,
  RunInfo,
  ToolCallOutcome,
  ToolDefinition,
  ToolDescriptor,
  ToolResult,
} from './types.js';

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

/** The waterfall value of `materialize`: modes add tools, system text and a hidden-name resolver. */
export interface ExposureDraft {
  readonly mode: string;
  tools: ExposedTool[];
  system: string[];
  /** Resolves a name the model called that is not exposed (directory mode) to a catalog tool id; may throw a coded error (e.g. UNKNOWN_TOOL). */
  resolveHidden?: (name: string) => string | undefined;
  /**
   * A catalog tool the model called by name before it was loaded (tools mode): the tool to load, exposed from then
   * on, or undefined for a name the mode does not load (it then answers as an unknown tool). The call itself answers
   * with the tool's input schema and a hint (`TOOL_NOT_LOADED`); the next call by that name runs it.
   */
  loadOnCall?: (name: string) => ExposedTool | undefined;
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
  /** Reaches the executor (`ExecuteContext.scope`), also through control tools (`tool_call`, code). */
  readonly scope?: Readonly<CallScope>;
}

export interface MaterializeContext {
  readonly run: RunApi;
  /** Tools that may enter a search catalog (`catalogMode: 'catalog'`). */
  readonly searchable: readonly ToolDescriptor[];
  /** Tools that must stay visible in every mode. */
  readonly directOnly: readonly ToolDescriptor[];
  /** Reports what this exposure degraded to (a mode's weaker backend): kept in `run.diagnostics` and emitted, like `MODE_FALLBACK`. */
  diagnostic(diagnostic: Omit<Diagnostic, 'hook'>): void;
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
