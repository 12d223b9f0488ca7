/**
 * One agent turn: build the run and its exposure for the configured mode,
 * send the conversation to an OpenAI-compatible provider with the official
 * `openai` client, execute the tool calls that come back through the
 * exposure (direct names, control tools, `tool_search_code`, hidden directory
 * names), append the results, and repeat until the model answers, a client
 * tool must run on the client, or the step limit is hit. A client tool called
 * inside `tool_call` or code suspends the turn until its result comes back
 * (handoff.ts).
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ClientCall, Kernel, RunRequest, ToolCallOutcome } from '@tool-search/kernel';
import { suspendableTurn, type SuspendedTurn, type TurnControl } from './handoff.js';
import { renderOutcome } from './render.js';

declare module '@tool-search/kernel' {
  interface RunEventMap {
    /** A conversation message of a gateway turn, for the session transcript (tool calls are logged by telemetry). */
    'turn-message': { readonly type: 'turn-message'; readonly role: string; readonly content: string | null; readonly toolCalls?: readonly string[] };
  }
}

export interface ClientFunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: Record<string, unknown> };
}

export interface TurnInput {
  readonly messages: readonly ChatCompletionMessageParam[];
  /** Tools the client declared; a model call to one is handed back to the client as `tool_calls`. */
  readonly clientTools?: readonly ClientFunctionTool[];
  readonly agentId?: string;
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
}

export interface TurnOptions {
  readonly kernel: Kernel;
  readonly client: OpenAI;
  readonly model: string;
  /** Exposure mode: direct | tools | directory | code. */
  readonly mode: string;
  /** Provider name for byProvider policy (default "openai"). */
  readonly provider?: string;
  readonly maxSteps?: number;
  /** How long a turn waits for the results of client calls made inside tool_call or code (default 5 min). */
  readonly clientCallTtlMs?: number;
}

export interface TurnToolCall {
  readonly name: string;
  readonly status: ToolCallOutcome['status'];
  readonly toolId: string;
}

export interface TurnResult {
  readonly message: ChatCompletionMessage;
  readonly finishReason: 'stop' | 'tool_calls' | 'length';
  readonly runId: string;
  readonly sessionId: string;
  readonly mode: string;
  readonly requests: number;
  readonly toolCalls: readonly TurnToolCall[];
  /** Set when the turn waits for client calls made inside tool_call or code: the server resumes it with their results. */
  readonly suspended?: SuspendedTurn<TurnResult>;
}

/** Modes where client tools are in the searchable catalog (the documents); elsewhere they stay directly visible. */
const CLIENT_TOOLS_IN_CATALOG: ReadonlySet<string> = new Set(['tools', 'code']);

export function runTurn(options: TurnOptions, input: TurnInput): Promise<TurnResult> {
  return suspendableTurn<TurnResult>((control) => driveTurn(options, input, control), options.clientCallTtlMs ?? 300_000);
}

async function driveTurn(options: TurnOptions, input: TurnInput, control: TurnControl<TurnResult>): Promise<TurnResult> {
  const { kernel, client, model, maxSteps = 8 } = options;
  const catalogMode = CLIENT_TOOLS_IN_CATALOG.has(options.mode) ? ('catalog' as const) : ('direct-only' as const);
  const request = {
    provider: options.provider ?? 'openai',
    model,
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    clientTools: (input.clientTools ?? []).map((tool) => ({ ...tool, catalogMode })),
  } as RunRequest;
  const run = await kernel.createRun(request, { onClientCall: control.take });
  try {
    const exposure = await run.exposure(options.mode);
    const tools = exposure.toOpenAI() as unknown as ChatCompletionTool[];
    const messages: ChatCompletionMessageParam[] = [
      ...(exposure.system ? [{ role: 'system' as const, content: exposure.system }] : []),
      ...input.messages,
    ];
    const toolCalls: TurnToolCall[] = [];
    // The tools and system text are the same on every request of the turn: measure them once.
    const toolsBytes = Buffer.byteLength(JSON.stringify(tools));
    const systemBytes = Buffer.byteLength(exposure.system);
    const lastUser = [...input.messages].reverse().find((message) => message.role === 'user');
    if (lastUser) run.emit({ type: 'turn-message', role: 'user', content: textOf(lastUser.content) });
    for (let step = 1; ; step++) {
      const body = { model, messages, ...(tools.length ? { tools } : {}) };
      const json = JSON.stringify(body);
      run.emit({
        type: 'provider-request',
        mode: exposure.mode,
        body: json,
        toolsBytes,
        systemBytes,
        requestBytes: Buffer.byteLength(json),
        toolNames: exposure.tools.map((tool) => tool.name),
      });
      const completion = await client.chat.completions.create(body, input.signal ? { signal: input.signal } : undefined);
      const choice = completion.choices[0];
      if (!choice) throw new Error('The provider returned no choices');
      const message = choice.message;
      const calls = (message.tool_calls ?? []).filter((call): call is ChatCompletionMessageFunctionToolCall => call.type === 'function');
      const done = (finishReason: TurnResult['finishReason'], final: ChatCompletionMessage): TurnResult => {
        run.emit({
          type: 'turn-message',
          role: 'assistant',
          content: final.content,
          ...(final.tool_calls?.length ? { toolCalls: final.tool_calls.map((call) => (call.type === 'function' ? call.function.name : call.type)) } : {}),
        });
        return {
        message: final,
        finishReason,
        runId: run.info.runId,
        sessionId: run.info.sessionId,
          mode: exposure.mode,
          requests: step,
          toolCalls,
        };
      };
      if (calls.length === 0) return done('stop', message);
      messages.push(toAssistantParam(message));
      const forClient: ChatCompletionMessageFunctionToolCall[] = [];
      for (const call of calls) {
        const work = exposure.call(call.function.name, parseArguments(call.function.arguments), input.signal ? { signal: input.signal } : {});
        // Client calls made inside this call go to the HTTP caller now; the call's outcome comes once their results do.
        const outcome = await control.outcome(run, work, (handed) => done('tool_calls', { ...message, tool_calls: handed.map(toClientToolCall) }));
        toolCalls.push({ name: call.function.name, status: outcome.status, toolId: outcome.toolId });
        if (outcome.status === 'pending') {
          forClient.push(call);
          continue;
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: renderOutcome(outcome) });
      }
      if (forClient.length) return done('tool_calls', { ...message, tool_calls: forClient });
      if (step >= maxSteps) {
        return done('length', { role: 'assistant', content: `Stopped after ${maxSteps} model requests without a final answer.`, refusal: null });
      }
    }
  } finally {
    await run.close();
  }
}

function toClientToolCall(call: ClientCall): ChatCompletionMessageFunctionToolCall {
  return { id: call.callId, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

function toAssistantParam(message: ChatCompletionMessage): ChatCompletionAssistantMessageParam {
  return {
    role: 'assistant',
    content: message.content,
    ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
  };
}

/** Models sometimes send invalid JSON; the kernel's schema check then reports it as an argument error. */
function parseArguments(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { __invalid_json__: text };
  }
}

function textOf(content: ChatCompletionMessageParam['content']): string | null {
  if (typeof content === 'string' || content === null || content === undefined) return content ?? null;
  return content.map((part) => ('text' in part ? part.text : `[${part.type}]`)).join('\n');
}
