/**
 * Programmatic tool calling in `native` mode: the provider's own sandbox calls
 * the catalog tools from code it runs. Anthropic: each tool carries
 * `allowed_callers: ["direct", "code_execution_20250825"]` and the
 * `code_execution_20250825` server tool is added; a call the sandbox makes is a
 * `tool_use` block with `caller: { type: "code_execution_20250825", tool_id }`.
 * OpenAI Responses: each function tool carries `allowed_callers: ["direct",
 * "programmatic"]` and the `programmatic_tool_calling` tool is added; a call is
 * a `function_call` item with `caller: { type: "program", caller_id }`.
 * Either way the call is executed through the run like any other (policy,
 * approvals, loop detection, telemetry with `caller: "programmatic"`), and the
 * provider's own items (the code, the program, its container) go back as they
 * came, so the sandbox can go on.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Run, ToolCallOutcome } from '@tool-search/kernel';
import type { ProviderExposure } from '@tool-search/provider-formats';
import type { Upstream, UpstreamReply, UpstreamToolCall } from './upstream.js';

/** The code-execution tool version whose sandbox may call the tools (the `ServerToolCaller` type in the SDK). */
export const ANTHROPIC_CODE_EXECUTION = 'code_execution_20250825';
/** The Responses API tool that lets the model's programs call tools. */
export const OPENAI_PROGRAMMATIC_TOOL = 'programmatic_tool_calling';

/** Who made a tool call the provider reported: its sandbox (Anthropic code execution, an OpenAI program). */
export interface ToolCaller {
  /** `code_execution_20250825` (Anthropic) or `program` (OpenAI). */
  readonly type: string;
  /** The code execution's `server_tool_use` id, or the program item's `call_id`. */
  readonly id: string;
}

/** Anthropic tools with the sandbox among their callers, and the code-execution tool after them. */
export function anthropicProgrammaticTools(tools: readonly unknown[], callable: readonly boolean[]): unknown[] {
  return [
    ...tools.map((tool, i) =>
      callable[i] ? { ...(tool as object), allowed_callers: ['direct', ANTHROPIC_CODE_EXECUTION] } : tool,
    ),
    { type: ANTHROPIC_CODE_EXECUTION, name: 'code_execution' },
  ];
}

/** Responses function tools with programs among their callers, and the programmatic tool-calling tool. */
export function openaiProgrammaticTools(tools: readonly unknown[], callable: readonly boolean[]): unknown[] {
  return [
    ...tools.map((tool, i) =>
      callable[i] ? { ...(tool as object), allowed_callers: ['direct', 'programmatic'] } : tool,
    ),
    { type: OPENAI_PROGRAMMATIC_TOOL },
  ];
}

/** The `caller` of a provider's tool call when its sandbox made it (`direct` and absent are the model's own). */
export function sandboxCaller(caller: unknown): ToolCaller | undefined {
  const value = caller as { type?: unknown; tool_id?: unknown; caller_id?: unknown } | undefined;
  if (typeof value?.type !== 'string' || value.type === 'direct') return undefined;
  const id = value.tool_id ?? value.caller_id;
  return typeof id === 'string' ? { type: value.type, id } : undefined;
}

/** Whether native mode on this upstream lets the sandbox call the tools: the capability table and the wire format say so. */
export function programmaticFor(upstream: Upstream, capability: { readonly programmatic: boolean }): boolean {
  return capability.programmatic && upstream.programmaticTools !== undefined;
}

/**
 * A turn's programmatic state: which tools the sandbox may call, the provider's own items of each step (sent back
 * verbatim in place of the assistant message the turn keeps), and Anthropic's container.
 */
export class ProgrammaticTurn {
  readonly #items = new Map<ChatCompletionMessageParam, readonly unknown[]>();
  readonly #callable: readonly boolean[];
  readonly #callableNames: ReadonlySet<string>;
  #container: string | undefined;

  /**
   * The sandbox may call the catalog tools the run executes; the search tool (its `tool_reference` hits load tools
   * for the model) and client tools (the HTTP client runs them, out of the sandbox's reach) stay the model's own.
   */
  constructor(
    private readonly run: Run,
    private readonly upstream: Upstream,
    exposure: ProviderExposure,
  ) {
    const sources = new Map(run.catalog.map((tool) => [tool.id, tool.source]));
    this.#callable = exposure.tools.map(
      (view) => view.kind === 'tool' && view.toolId !== undefined && sources.get(view.toolId) !== 'client',
    );
    this.#callableNames = new Set(
      exposure.tools.flatMap((view, i) => (this.#callable[i] ? [view.name, exposure.providerName(view.name)] : [])),
    );
  }

  /** The exposure's tools (this provider's format, in exposure order) with the sandbox among their callers. */
  tools(tools: readonly unknown[]): unknown[] {
    return this.upstream.programmaticTools ? this.upstream.programmaticTools(tools, this.#callable) : [...tools];
  }

  /**
   * A sandbox call to a tool it was not offered (the search tool, a client tool) is refused before it reaches the
   * run: the provider should not make it, and a client tool handed back mid-program would leave the program stranded.
   */
  refusal(call: UpstreamToolCall, toolId: string): ToolCallOutcome | undefined {
    if (!call.caller || this.#callableNames.has(call.name)) return undefined;
    const reason = `${call.name} is not callable from the provider's sandbox (allowed_callers leaves it out); call it directly`;
    return { status: 'blocked', callId: call.id, toolId, reason, by: '@tool-search/gateway' };
  }

  /** What the next request carries: the provider items by assistant message, and the container to reuse. */
  request(): { providerItems: ReadonlyMap<ChatCompletionMessageParam, readonly unknown[]>; container?: string } {
    return { providerItems: this.#items, ...(this.#container ? { container: this.#container } : {}) };
  }

  /** Keeps a step's provider items (its code, its program, the calls with their callers), for the next request. */
  step(reply: UpstreamReply, assistant: ChatCompletionMessageParam): void {
    if (reply.container) this.#container = reply.container;
    if (reply.providerItems) this.#items.set(assistant, reply.providerItems);
  }

  /** Telemetry's marker for the call about to run (`tool-caller`), when the sandbox made it. */
  before(call: UpstreamToolCall, toolId: string | undefined): void {
    if (call.caller && toolId) this.run.emit({ type: 'tool-caller', toolId, caller: 'programmatic' });
  }
}
