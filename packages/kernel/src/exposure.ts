/**
 * The finished exposure of a run: provider-neutral tools and system text, and
 * `call()`, which routes a model's tool call (by exposed name, or a hidden name
 * the mode resolves) back through the run. Provider wire formats (OpenAI and
 * Anthropic tool shapes, provider-safe names) live in @tool-search/provider-formats,
 * which wraps this exposure. Model-facing problems come back as
 * `{ status: 'error' }` outcomes, never throws.
 */
import { ErrorCode, ToolSearchError, UnknownToolError } from './errors.js';
import { callStatusOf } from './control-status.js';
import { linkSignals } from './signals.js';
import { suggestIds } from './suggest.js';
import type {
  CallOptions,
  ExposedTool,
  JsonSchema,
  RunApi,
  RunEvent,
  ToolCallOutcome,
  ToolDescriptor,
  ToolResult,
} from './types.js';
import { errorMessage } from './error-message.js';

export interface ExposureToolView {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly toolId?: string;
  readonly kind: 'tool' | 'control';
}

export interface RunExposure {
  readonly mode: string;
  readonly tools: readonly ExposureToolView[];
  readonly system: string;
  /** Routes a model's tool call by exposed name (or a hidden name the mode resolves). */
  call(name: string, args: unknown, options?: Omit<CallOptions, 'origin'>): Promise<ToolCallOutcome>;
  /** Whether `name` is something this exposure can route. */
  has(name: string): boolean;
  /** Catalog tools a call loaded (`loadOnCall`: called before they were loaded), in order; callers add them to what the model sees. */
  loaded(): readonly ExposureToolView[];
  toJSON(): { mode: string; tools: ExposureToolView[]; system: string };
}

export function directTool(tool: ToolDescriptor): ExposedTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, toolId: tool.id };
}

export function createExposure(
  mode: string,
  tools: readonly ExposedTool[],
  system: string,
  run: RunApi,
  resolveHidden: ((name: string) => string | undefined) | undefined,
  loadOnCall?: (name: string) => ExposedTool | undefined,
): RunExposure {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const views: ExposureToolView[] = tools.map(viewOf);
  const loaded: ExposureToolView[] = [];
  const lookup = (name: string) => byName.get(name);
  /**
   * A catalog tool called before it was loaded: from now on it is exposed; this call answers with its schema. What the
   * mode picks is checked against the run's effective catalog (policy applied, hidden tools out), so a mode's mistake
   * cannot show a dropped tool's schema.
   */
  const load = (name: string, callId: string): ToolCallOutcome | undefined => {
    const picked = loadOnCall?.(name);
    const tool = picked?.toolId && !picked.handler ? run.tool(picked.toolId) : undefined;
    if (!tool || tool.id !== picked?.toolId || tool.catalogMode === 'hidden' || byName.has(name)) return undefined;
    const exposed: ExposedTool = { ...directTool(tool), name };
    byName.set(name, exposed);
    loaded.push(viewOf(exposed));
    const result = notLoadedResult(name, tool.inputSchema);
    const { message } = (result.structuredContent as { error: { message: string } }).error;
    return { status: 'error', callId, toolId: tool.id, error: { code: ErrorCode.TOOL_NOT_LOADED, message }, result };
  };

  async function call(
    name: string,
    args: unknown,
    options: Omit<CallOptions, 'origin'> = {},
  ): Promise<ToolCallOutcome> {
    const exposed = lookup(name);
    const callId = `control_${Math.random().toString(36).slice(2, 10)}`;
    try {
      if (exposed?.handler) {
        // Linked by hand, not AbortSignal.any: that keeps every control call's signal alive as long as the run (signals.ts).
        const linked = linkSignals([options.signal, run.signal]);
        const input =
          typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
        // A control tool's own calls (tool_call, the code bridge) carry the caller's scope on, and are counted.
        const counted = countingRun(options.scope ? withScope(run, options.scope) : run);
        try {
          const result = await exposed.handler(input, { signal: linked.signal, run: counted.run });
          const outcome = controlOutcome(result, callId, `control:${mode}:${exposed.name}`);
          // A failed code run is an `ok` call whose result has isError: observers (the inspect page) must see it failed.
          const failed = outcome.status === 'ok' && outcome.result?.isError === true ? { isError: true as const } : {};
          run.emit({
            type: 'control-call',
            name: exposed.name,
            mode,
            status: outcome.status,
            ...failed,
            ...counted.counts,
          });
          return outcome;
        } finally {
          linked.release();
        }
      }
      if (exposed?.toolId) return await run.call(exposed.toolId, args, { ...options, origin: 'direct' });
      const hidden = resolveHidden?.(name);
      if (hidden) return await run.call(hidden, args, { ...options, origin: 'directory' });
      const unloaded = load(name, callId);
      if (unloaded) return unloaded;
      throw new UnknownToolError(name, closestNames(name, views));
    } catch (error) {
      const coded = ToolSearchError.isInstance(error)
        ? error
        : new ToolSearchError(ErrorCode.TOOL_EXECUTION_FAILED, errorMessage(error), { cause: error });
      if (coded.code === ErrorCode.RUN_CLOSED) throw coded;
      return {
        status: 'error',
        callId,
        toolId: coded.toolId ?? name,
        error: { code: coded.code, message: coded.message },
      };
    }
  }

  return Object.freeze({
    mode,
    tools: Object.freeze(views),
    system,
    call,
    has: (name: string) => {
      if (lookup(name)) return true;
      try {
        return resolveHidden?.(name) !== undefined;
      } catch {
        return false;
      }
    },
    loaded: () => [...loaded],
    toJSON: () => ({ mode, tools: views, system }),
  });
}

function viewOf(tool: ExposedTool): ExposureToolView {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.toolId ? { toolId: tool.toolId } : {}),
    kind: tool.handler ? 'control' : 'tool',
  };
}

/**
 * What a call of a catalog tool that was not loaded answers (`TOOL_NOT_LOADED`): a one-line hint, then the tool's
 * input schema as JSON, so the model's next call can be right. Shared by the modes and the framework adapters.
 */
export function notLoadedResult(name: string, inputSchema: JsonSchema): ToolResult {
  const code = ErrorCode.TOOL_NOT_LOADED;
  const message = `${name} was not loaded; its schema is below; call it again with these arguments.\n${JSON.stringify(inputSchema)}`;
  return {
    content: [{ type: 'text', text: `Error ${code}: ${message}` }],
    structuredContent: { error: { code, message, name, inputSchema } },
    isError: true,
  };
}

/** The run as a control handler sees it: `call` adds `scope` unless the handler gives its own. */
function withScope(run: RunApi, scope: NonNullable<CallOptions['scope']>): RunApi {
  return Object.create(run, {
    call: {
      value: (nameOrId: string, args: unknown, options: CallOptions = {}) =>
        run.call(nameOrId, args, { ...options, scope: options.scope ?? scope }),
    },
  }) as RunApi;
}

/** A call the control tool made for the model (tool_call) that failed or was blocked says so at the top level. */
function controlOutcome(result: ToolResult, callId: string, toolId: string): ToolCallOutcome {
  const inner = callStatusOf(result);
  if (inner?.status === 'error') return { status: 'error', callId, toolId, error: inner.error, result };
  if (inner?.status === 'blocked')
    return { status: 'blocked', callId, toolId, reason: inner.reason, by: inner.by, result };
  return { status: 'ok', callId, toolId, result };
}

/** The run as one control call sees it, counting the searches, describes and calls it makes (its own telemetry). */
function countingRun(run: RunApi): { run: RunApi; counts: { searches: number; describes: number; calls: number } } {
  const counts = { searches: 0, describes: 0, calls: 0 };
  const view: RunApi = Object.create(run, {
    emit: {
      value: (event: RunEvent) => {
        // `search` and `describe` are @tool-search/search's events (declared there): counted by their wire names.
        const type: string = event.type;
        if (type === 'search') counts.searches++;
        else if (type === 'describe') counts.describes++;
        run.emit(event);
      },
    },
    call: {
      value: (nameOrId: string, args: unknown, options?: CallOptions) => {
        counts.calls++;
        return run.call(nameOrId, args, options);
      },
    },
  });
  return { run: view, counts };
}

function closestNames(name: string, views: readonly ExposureToolView[]): string[] {
  const pseudo = views.map((view) => ({ id: view.name, name: view.name }) as ToolDescriptor);
  return suggestIds(name, pseudo);
}
