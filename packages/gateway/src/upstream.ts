/**
 * The provider behind the gateway, seen the same way for every wire format:
 * the turn hands it the conversation (OpenAI chat messages, the gateway's
 * internal form), the system text and the exposure's tools, and gets back one
 * assistant step. `body()` serializes once; `send()` posts exactly that string,
 * so the bytes telemetry measures are the bytes the provider receives.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type { ProviderExposure } from '@tool-search/provider-formats';
import type { ToolCaller } from './programmatic.js';
import type { ProviderUsage } from './cache-usage.js';

export type UpstreamKind = 'openai' | 'anthropic';

export interface UpstreamRequest {
  readonly system: string;
  readonly messages: readonly ChatCompletionMessageParam[];
  /** The exposure's tools already serialized in this provider's format (`[]` text when none). */
  readonly toolsJson: string;
  readonly maxTokens?: number;
  /** Tool calls (and their results) by these names are Anthropic server tools: sent back as their own blocks. */
  readonly serverTools?: ReadonlySet<string>;
  /** Tool results to send as `tool_reference` blocks (native mode's `tool_search`), by tool call id. */
  readonly toolReferences?: ReadonlyMap<string, readonly string[]>;
  /** Programmatic tool calling: assistant messages sent as the provider's own items, verbatim (programmatic.ts). */
  readonly providerItems?: ReadonlyMap<ChatCompletionMessageParam, readonly unknown[]>;
  /** Anthropic's code-execution container to go on in (the previous step's `container.id`). */
  readonly container?: string;
}

export interface UpstreamToolCall {
  readonly id: string;
  readonly name: string;
  /** JSON text, as the model wrote it. */
  readonly arguments: string;
  /** Set when the provider's sandbox made the call (programmatic tool calling). */
  readonly caller?: ToolCaller;
}

export interface UpstreamReply {
  readonly content: string | null;
  readonly toolCalls: readonly UpstreamToolCall[];
  /** `length` when the provider stopped at its token limit. */
  readonly stopped: 'stop' | 'tool_calls' | 'length';
  /** Tokens as the provider reported them (cache-usage.ts: `input` includes cached prompt tokens). */
  readonly usage?: ProviderUsage;
  /** Server tools the provider ran in this step (Anthropic `server_tool_use` / `tool_search_tool_result` blocks), in order. */
  readonly serverBlocks?: readonly ServerBlock[];
  /** The step's content as the provider sent it (Anthropic blocks, Responses output items), for programmatic calling. */
  readonly providerItems?: readonly unknown[];
  /** Anthropic's code-execution container of this step. */
  readonly container?: string;
}

export type ServerBlock =
  | { readonly type: 'server_tool_use'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'tool_search_tool_result'; readonly tool_use_id: string; readonly content: unknown };

export interface Upstream {
  readonly kind: UpstreamKind;
  /** The base URL requests go to (named in errors). */
  readonly url: string;
  readonly model: string;
  /** The exposure's tools in this provider's format. */
  tools(exposure: ProviderExposure): readonly unknown[];
  /** The exact JSON body for one request. */
  body(request: UpstreamRequest): string;
  /**
   * Present when this provider caches only what a request marks (Anthropic): the session's stable tools (before any
   * loaded or passed-through tool is appended) with their prompt-cache breakpoint (cache-breakpoints.ts).
   */
  cacheTools?(toolsJson: string): string;
  send(body: string, signal?: AbortSignal): Promise<UpstreamReply>;
  /**
   * Present when this wire format has programmatic tool calling: the tools (this provider's format) with the sandbox
   * among the callers of those marked `callable`, plus the tool that runs the sandbox.
   */
  programmaticTools?(tools: readonly unknown[], callable: readonly boolean[]): unknown[];
}

/**
 * Runs a provider request, once more when it failed before any HTTP answer
 * (a kept-alive socket the provider had just closed: EPIPE, ECONNRESET). A
 * provider request has no side effect here (tools run in the gateway), so a
 * repeat costs only tokens. HTTP errors and aborts are not repeated.
 */
async function withConnectionRetry<T>(attempt: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (signal?.aborted || errorClass(error) !== 'APIConnectionError') throw error;
    return attempt();
  }
}

/**
 * Posts a serialized body with an official client's `post` (the body goes out
 * as it is), retrying a dropped connection once; failures become `PROVIDER_FAILED`.
 */
export async function postBody<T>(
  post: (options: { body: string; headers: Record<string, string>; signal?: AbortSignal }) => PromiseLike<T>,
  body: string,
  signal: AbortSignal | undefined,
  provider: { readonly kind: UpstreamKind; readonly url: string },
): Promise<T> {
  try {
    return await withConnectionRetry(
      async () => post({ body, headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) }),
      signal,
    );
  } catch (error) {
    throw providerFailure(error, provider.kind, provider.url);
  }
}

/** The SDK error class (the `openai` client leaves `name` as "Error"). Timeouts are `APIConnectionTimeoutError`. */
function errorClass(error: unknown): string | undefined {
  return (error as { constructor?: { name?: string } } | undefined)?.constructor?.name;
}

/** The shape both official SDKs give their API errors (status, parsed body). */
interface SdkError {
  readonly status?: number;
  readonly error?: unknown;
  readonly message?: string;
  readonly name?: string;
}

/**
 * Turns an SDK failure into a coded error that names the provider URL and the
 * HTTP status (none when unreachable). Aborts by the caller pass through.
 */
export function providerFailure(error: unknown, kind: UpstreamKind, url: string): unknown {
  if (ToolSearchError.isInstance(error)) return error;
  const sdk = (error ?? {}) as SdkError;
  if (errorClass(error) === 'APIUserAbortError' || sdk.name === 'AbortError') return error;
  const status = typeof sdk.status === 'number' ? sdk.status : undefined;
  const detail = providerMessage(sdk) ?? (error instanceof Error ? causeText(error) : String(error));
  const message =
    status === undefined
      ? `Could not reach the ${kind} provider at ${url}: ${detail}`
      : `The ${kind} provider at ${url} answered HTTP ${status}: ${detail}`;
  return new ToolSearchError(ErrorCode.PROVIDER_FAILED, message, {
    cause: error,
    details: { provider: kind, url, ...(status !== undefined ? { status } : {}) },
  });
}

function providerMessage(error: SdkError): string | undefined {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const text = body?.error?.message ?? body?.message;
  return typeof text === 'string' ? text : undefined;
}

/** The message with its causes (`fetch failed` alone does not say why), bounded. */
function causeText(error: Error): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${current.message}${typeof code === 'string' ? ` (${code})` : ''}`);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}
