/**
 * A run: one effective catalog (listed, validated, policy applied), the calls
 * made against it, and its exposures. Every call is re-checked against the
 * effective catalog, validated against the tool's schema, and passed through
 * `beforeToolCall` before the tool runs.
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze, type CatalogEntry } from './catalog.js';
import { ErrorCode, ToolArgumentsError, ToolSearchError, UnknownToolError } from './errors.js';
import { createExposure, type RunExposure } from './exposure.js';
import type { KernelHooks } from './hooks.js';
import { compileToolSchema, isSchemaIssue, toSchemaIssues } from './schema.js';
import { linkSignals } from './signals.js';
import { suggestIds } from './suggest.js';
import { decidedBy, takeObserverFailures } from './builtins/guards.js';
import { renderGuidance, type GuidanceEntry } from './guidance.js';
import { createClientCallBroker, type ClientCall, type RunOptions } from './client-calls.js';
import type {
  CallContext,
  CallOptions,
  Diagnostic,
  ExposedTool,
  ExposureDraft,
  Explanation,
  PolicyStep,
  RunApi,
  RunEvent,
  RunInfo,
  ToolCall,
  ToolCallOutcome,
  ToolDescriptor,
  ToolResult,
} from './types.js';
import { errorMessage } from './error-message.js';

export interface Run extends RunApi {
  readonly diagnostics: readonly Diagnostic[];
  /** Every listed tool before policy (for explain and tooling); never callable as such. */
  readonly listed: readonly ToolDescriptor[];
  explain(nameOrId: string): Explanation;
  exposure(mode: string): Promise<RunExposure>;
  /** Client tool calls handed to `RunOptions.onClientCall` that still wait for the client. */
  readonly pendingClientCalls: readonly ClientCall[];
  /** The client's result for a handed-off call; false when no such call waits (answered, cancelled or unknown). */
  resolveClientCall(callId: string, result: ToolResult): boolean;
  close(): Promise<void>;
  readonly closed: boolean;
}

export interface RunParts {
  readonly hooks: KernelHooks;
  readonly info: RunInfo;
  readonly entries: readonly CatalogEntry[];
  readonly effective: readonly ToolDescriptor[];
  readonly steps: Map<string, PolicyStep[]>;
  readonly diagnostics: Diagnostic[];
  readonly guidance: readonly GuidanceEntry[];
  readonly onClose: () => void;
  readonly options?: RunOptions;
}

/** Name lookup order when several tools share a name. */
const SOURCE_PRECEDENCE = { core: 0, plugin: 1, mcp: 2, skill: 3, client: 4 } as const;

export function byNamePrecedence(a: ToolDescriptor, b: ToolDescriptor): number {
  return SOURCE_PRECEDENCE[a.source] - SOURCE_PRECEDENCE[b.source] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function createRunObject(parts: RunParts): Run {
  const { hooks, info, diagnostics } = parts;
  const controller = new AbortController();
  const executors = new Map(parts.entries.map((entry) => [entry.descriptor.id, entry.execute]));
  const listed = Object.freeze(parts.entries.map((entry) => entry.descriptor));
  const catalog = Object.freeze([...parts.effective]);
  const byId = new Map(catalog.map((tool) => [tool.id, tool]));
  // Hidden tools (an MCP App's app-only ones) are reached by id only, and never suggested.
  const reachable = catalog.filter((tool) => tool.catalogMode !== 'hidden');
  const byName = new Map<string, ToolDescriptor>();
  for (const tool of [...reachable].sort(byNamePrecedence)) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  let closed = false;
  let stopped: string | undefined;
  const clientCalls = createClientCallBroker(parts.options ?? {});

  const tool = (nameOrId: string) => byId.get(nameOrId) ?? byName.get(nameOrId);

  async function call(nameOrId: string, rawArgs: unknown, options: CallOptions = {}): Promise<ToolCallOutcome> {
    if (closed) throw new ToolSearchError(ErrorCode.RUN_CLOSED, 'This run is closed; create a new run');
    if (stopped) throw new ToolSearchError(ErrorCode.RUN_STOPPED, `This run was stopped: ${stopped}`);
    const found = typeof nameOrId === 'string' ? tool(nameOrId) : undefined;
    // A hidden tool is a front end's (origin `api`): the model's paths (direct, tool_call, code) do not reach it.
    const descriptor = found?.catalogMode === 'hidden' && (options.origin ?? 'api') !== 'api' ? undefined : found;
    if (!descriptor) throw new UnknownToolError(String(nameOrId), suggestIds(String(nameOrId), reachable));
    const args = validateArgs(descriptor, rawArgs);
    const callId = randomUUID();
    const call: ToolCall = Object.freeze({ callId, tool: descriptor, args, origin: options.origin ?? 'api' });
    const linked = linkSignals([controller.signal, options.signal]);
    const ctx: CallContext = { run: info, signal: linked.signal, emit };
    try {
      const outcome = await decideAndExecute(call, ctx, options);
      if (hooks.afterToolCall.isUsed()) {
        // Each observer is isolated (guards.ts): a throwing one is reported under its own code, the outcome stands.
        await hooks.afterToolCall.promise(call, outcome, ctx);
        for (const failure of takeObserverFailures(call)) emitDiagnostic(observerDiagnostic(failure));
      }
      return outcome;
    } finally {
      linked.release();
    }
  }

  async function decideAndExecute(
    call: ToolCall,
    ctx: CallContext,
    { timeoutMs, scope }: CallOptions,
  ): Promise<ToolCallOutcome> {
    const base = { callId: call.callId, toolId: call.tool.id };
    const decision = hooks.beforeToolCall.isUsed() ? await hooks.beforeToolCall.promise(call, ctx) : undefined;
    if (decision?.action === 'block') {
      if (decision.stopRun) stopped = decision.reason;
      return { ...base, status: 'blocked', reason: decision.reason, by: decidedBy(decision) };
    }
    if (decision?.action === 'replace') return { ...base, status: 'ok', result: decision.result };
    const execute = executors.get(call.tool.id);
    if (!execute && !clientCalls.nested(call.origin))
      return { ...base, status: 'pending', name: call.tool.name, args: call.args };
    try {
      const executeCtx = { callId: call.callId, signal: ctx.signal, run: info, ...(scope ? { scope } : {}) };
      const running = execute
        ? Promise.resolve(execute({ ...call.args }, executeCtx))
        : clientCalls.wait(call, ctx.signal);
      const result = await withDeadline(running, ctx.signal, timeoutMs);
      return { ...base, status: 'ok', result: checkResult(result) };
    } catch (error) {
      const coded = ToolSearchError.isInstance(error) ? error : undefined;
      const code = coded?.code ?? (ctx.signal.aborted ? ErrorCode.TOOL_CALL_ABORTED : ErrorCode.TOOL_EXECUTION_FAILED);
      return { ...base, status: 'error', error: { code, message: errorMessage(error) } };
    }
  }

  async function exposure(mode: string, visited: readonly string[] = []): Promise<RunExposure> {
    const hook = hooks.materialize.get(mode);
    if (!hook || !hook.isUsed()) {
      throw new ToolSearchError(
        ErrorCode.MODE_UNKNOWN,
        `No plugin materializes exposure mode "${mode}"; register its mode plugin`,
        {
          hook: 'materialize',
          details: { mode },
        },
      );
    }
    const draft: ExposureDraft = { mode, tools: [], system: [] };
    const searchable = catalog.filter((t) => t.catalogMode === 'catalog');
    const directOnly = catalog.filter((t) => t.catalogMode === 'direct-only');
    const diagnostic = (reported: Omit<Diagnostic, 'hook'>) => emitDiagnostic({ ...reported, hook: 'materialize' });
    const result = await hook.promise(draft, { run: api, searchable, directOnly, diagnostic });
    if (result.fallback && !visited.includes(result.fallback.mode)) {
      emitDiagnostic({
        code: ErrorCode.MODE_FALLBACK,
        level: 'warning',
        message: `Exposure mode "${mode}" fell back to "${result.fallback.mode}": ${result.fallback.reason}`,
        hook: 'materialize',
        details: { from: mode, to: result.fallback.mode },
      });
      return exposure(result.fallback.mode, [...visited, mode]);
    }
    refuseControlNameClash(result, catalog);
    const tools = withDirectOnly(result.tools, directOnly, emitDiagnostic);
    const guidance = renderGuidance(
      parts.guidance,
      tools.flatMap((t) => (t.toolId ? [t.toolId] : [])),
    );
    const system = [...result.system, guidance].filter(Boolean).join('\n\n');
    return createExposure(result.mode, tools, system, api, result.resolveHidden, result.loadOnCall);
  }

  function emitDiagnostic(diagnostic: Diagnostic) {
    diagnostics.push(diagnostic);
    emit({ type: 'diagnostic', diagnostic });
  }

  function emit(event: RunEvent) {
    if (hooks.runEvent.isUsed()) hooks.runEvent.call(event, info);
  }

  function explain(nameOrId: string): Explanation {
    const known =
      listed.find((t) => t.id === nameOrId) ?? [...listed].sort(byNamePrecedence).find((t) => t.name === nameOrId);
    if (!known) return { requested: nameOrId, known: false, inCatalog: false, steps: [] };
    return {
      requested: nameOrId,
      toolId: known.id,
      known: true,
      inCatalog: byId.has(known.id),
      steps: parts.steps.get(known.id) ?? [],
    };
  }

  const api: Run = {
    info,
    catalog,
    listed,
    diagnostics,
    signal: controller.signal,
    get closed() {
      return closed;
    },
    tool,
    call,
    emit,
    guidanceFor: (toolIds, budget) => renderGuidance(parts.guidance, toolIds, budget),
    explain,
    exposure: (mode) => exposure(mode),
    get pendingClientCalls() {
      return clientCalls.pending;
    },
    resolveClientCall: (callId, result) => clientCalls.resolve(callId, result),
    async close() {
      if (closed) return;
      closed = true;
      controller.abort(new ToolSearchError(ErrorCode.RUN_CLOSED, 'run closed'));
      parts.onClose();
      if (hooks.runEnd.isUsed()) await hooks.runEnd.promise(info);
    },
  };
  return api;
}

/** A client tool named like the mode's control tool (`tool_search`) would be silently shadowed: the run's exposure is refused. */
function refuseControlNameClash(draft: ExposureDraft, catalog: readonly ToolDescriptor[]): void {
  const control = new Set(draft.tools.filter((tool) => tool.handler).map((tool) => tool.name));
  const clash = catalog.find((tool) => tool.source === 'client' && control.has(tool.name));
  if (!clash) return;
  throw new ToolSearchError(
    ErrorCode.CLIENT_TOOL_COLLISION,
    `Client tool "${clash.name}" (${clash.id}) has the name of a control tool of exposure mode "${draft.mode}"; rename the client tool`,
    {
      toolId: clash.id,
      hook: 'materialize',
      details: { clientTool: clash.id, controlTool: clash.name, mode: draft.mode },
    },
  );
}

/** Direct-only tools are always visible, whatever the mode did (kernel invariant). */
function withDirectOnly(
  tools: readonly ExposedTool[],
  directOnly: readonly ToolDescriptor[],
  report: (diagnostic: Diagnostic) => void,
): ExposedTool[] {
  const out: ExposedTool[] = [];
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) continue;
    names.add(tool.name);
    out.push(tool);
  }
  for (const tool of directOnly) {
    if (out.some((t) => t.toolId === tool.id)) continue;
    if (names.has(tool.name)) {
      // A mode's control tool keeps its name (routing must not be hijackable); say so instead of hiding it silently.
      report({
        code: ErrorCode.TOOL_NAME_SHADOWED,
        level: 'warning',
        message: `Direct-only tool ${tool.id} is not exposed under "${tool.name}": the mode already uses that name; it stays callable by id`,
        toolId: tool.id,
        hook: 'materialize',
      });
      continue;
    }
    names.add(tool.name);
    out.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, toolId: tool.id });
  }
  return out;
}

/**
 * An observer's failure as a run diagnostic: its own code, the plugin and tool named, the thrown value kept as a
 * non-enumerable `cause` (as on `Error`), so diagnostics printed as JSON stay as they were.
 */
function observerDiagnostic(failure: ToolSearchError): Diagnostic {
  const diagnostic: Diagnostic = {
    code: failure.code,
    level: 'warning',
    message: failure.message,
    ...(failure.plugin ? { plugin: failure.plugin } : {}),
    hook: 'afterToolCall',
    ...(failure.toolId ? { toolId: failure.toolId } : {}),
    ...(failure.details ? { details: failure.details } : {}),
  };
  return Object.defineProperty(diagnostic, 'cause', { value: failure.cause, enumerable: false });
}

function validateArgs(tool: ToolDescriptor, raw: unknown): Readonly<Record<string, unknown>> {
  let args: unknown;
  try {
    // A JSON round trip drops proxies, getters, functions and prototypes: what runs is plain data.
    args = raw === undefined ? {} : JSON.parse(JSON.stringify(raw));
  } catch (error) {
    throw new ToolArgumentsError(
      tool.id,
      [{ path: '/', rule: 'json', message: `arguments are not JSON data (${errorMessage(error)})` }],
      { cause: error },
    );
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ToolArgumentsError(tool.id, [{ path: '/', rule: 'type', message: 'arguments must be an object' }]);
  }
  const validate = compileToolSchema(tool.inputSchema);
  if (isSchemaIssue(validate)) {
    throw new ToolSearchError(
      ErrorCode.TOOL_SCHEMA_INVALID,
      `Tool ${tool.id} has an input schema that does not compile: ${validate.message}`,
      { toolId: tool.id },
    );
  }
  if (!validate(args)) throw new ToolArgumentsError(tool.id, toSchemaIssues(validate.errors));
  return deepFreeze(args as Record<string, unknown>);
}

function checkResult(result: unknown): ToolResult {
  if (typeof result !== 'object' || result === null || !Array.isArray((result as ToolResult).content)) {
    throw new ToolSearchError(
      ErrorCode.TOOL_EXECUTION_FAILED,
      'The tool returned something that is not a tool result ({ content: [...] })',
    );
  }
  return result as ToolResult;
}

function withDeadline<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timeoutMs
      ? setTimeout(
          () => reject(new ToolSearchError(ErrorCode.TOOL_TIMEOUT, `The tool did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        )
      : undefined;
    const onAbort = () => reject(new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, 'The call was cancelled'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}
