/**
 * The subset of the OpenAI Chat Completions wire format the mock reads and
 * writes. Kept loose where real clients vary (content parts, extra fields).
 */

export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface ContentPart {
  readonly type: string;
  readonly text?: string;
}

export interface ChatMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | (string & {});
  readonly content?: string | readonly ContentPart[] | null;
  readonly tool_calls?: readonly ChatToolCall[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

export interface ChatTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: { readonly [key: string]: unknown };
  };
}

export interface ChatRequest {
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[];
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly [key: string]: unknown;
}

/** The scenario a user message asks for: `tool search qa check target=NAME [args={...}] [loop=N]`. */
export interface Script {
  readonly target: string;
  readonly args: Record<string, unknown>;
  /** How many times the target is called before the final answer (loop-detection scenarios). */
  readonly loop: number;
  /** What the model searches for (`query="…"`); the target's name when absent. */
  readonly query?: string;
  /** A client's own search tool (`searchTool=`): called with `{ query }` to load the target (`deferred` lane). */
  readonly searchTool?: string;
  /** `argsText="…"`: the exact `arguments` text of the target's call (direct and directory lanes), e.g. invalid JSON. */
  readonly argumentsText?: string;
  /** `early=1`: the model first calls the target by name before any search loaded it (a call before the load). */
  readonly early?: boolean;
}

/** Which way the mock reaches the target, chosen from the tools it is offered. */
export type Lane = 'direct' | 'code' | 'directory' | 'tools' | 'search' | 'deferred' | 'unloaded';

/** The model's next move: call one tool, or answer. */
export type Step =
  | {
      readonly kind: 'tool-call';
      readonly lane: Lane;
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly callId: string;
      /** Sent as the call's `arguments` instead of `JSON.stringify(args)` (a model writing invalid JSON). */
      readonly argumentsText?: string;
    }
  | {
      readonly kind: 'answer';
      readonly text: string;
      readonly reason: 'done' | 'no-script' | 'said' | 'unreachable' | 'not-found' | 'failed';
    };

/** One HTTP request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received (UTF-8). Empty for bodiless requests. */
  readonly raw: string;
  /** `JSON.parse(raw)`, or `undefined` when the body is empty or not JSON. */
  readonly body: unknown;
  /** The step the mock answered with (chat completions only). */
  readonly step?: Step;
}
