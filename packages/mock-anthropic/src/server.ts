/**
 * A real HTTP server speaking enough of the Anthropic Messages API for the
 * gateway and the e2e tests: `POST /v1/messages` (whole or SSE) and
 * `GET /v1/models`. The scripted model is `planNextStep` of
 * `@tool-search/mock-openai`, fed the request in chat shape, so both mocks
 * follow the same script language. Every request is recorded as received.
 */
import type { ServerResponse } from 'node:http';
import {
  createRecorder,
  planNextStep,
  send,
  serveLocal,
  type Received,
  type RecordedRequest,
  type RecordLimits,
} from '@tool-search/mock-openai';
import { toChatRequest } from './convert.js';
import { documentBlockError } from './documents.js';
import { isDeferred, searchBlocks, searchDeferred, searchToolOf } from './deferred.js';
import { programmaticError, programmaticPlan } from './programmatic.js';
import { errorBody, events, message, MOCK_ANTHROPIC_MODEL, modelList } from './response.js';
import {
  cacheBreakpoints,
  createAnthropicPromptCache,
  MAX_CACHE_BREAKPOINTS,
  type AnthropicPromptCacheOptions,
} from './prompt-cache.js';
import type { ContentBlock, MessagesRequest } from './types.js';

export interface MockAnthropicOptions {
  /** Port on 127.0.0.1; default 0 (a free port). */
  readonly port?: number;
  /** What `requests` keeps: the newest requests, bounded by count and body bytes (as in `@tool-search/mock-openai`). */
  readonly record?: RecordLimits;
  /** The prompt cache (prompt-cache.ts): by default only requests with `cache_control`, 1,024-token minimum. */
  readonly promptCache?: AnthropicPromptCacheOptions;
}

export interface MockAnthropic {
  /** Base URL for an Anthropic client, `http://127.0.0.1:PORT` (the client adds `/v1/messages`). */
  readonly url: string;
  /** The newest requests received, in order, within `record` limits (the array is live). */
  readonly requests: RecordedRequest[];
  /** How many requests were received in all, including those no longer kept. */
  readonly received: number;
  close(): Promise<void>;
}

export async function startMockAnthropic(options: MockAnthropicOptions = {}): Promise<MockAnthropic> {
  const recorder = createRecorder(options.record);
  const requests = recorder;
  let counter = 0;
  const promptCache = createAnthropicPromptCache(options.promptCache);
  const server = await serveLocal(options.port ?? 0, handle, (res, error) =>
    send(res, 400, errorBody('invalid_request_error', `Could not read the body: ${String(error)}`)),
  );

  function handle(res: ServerResponse, record: Received): void {
    const { method, path, raw, body } = record;
    if (method === 'GET' && path === '/v1/models') {
      requests.push(record);
      return send(res, 200, modelList(new Date(0).toISOString()));
    }
    if (method !== 'POST' || path !== '/v1/messages') {
      requests.push(record);
      return send(
        res,
        404,
        errorBody(
          'not_found_error',
          `Unknown route ${method} ${path}; the mock serves GET /v1/models and POST /v1/messages`,
        ),
      );
    }
    if (!isMessagesRequest(body)) {
      requests.push(record);
      return send(
        res,
        400,
        errorBody('invalid_request_error', 'The body must be a JSON object with a `messages` array and `max_tokens`'),
      );
    }
    const malformed = documentBlockError(body);
    if (malformed) {
      requests.push(record);
      return send(res, 400, errorBody('invalid_request_error', malformed));
    }
    const breakpoints = cacheBreakpoints(body);
    if (breakpoints > MAX_CACHE_BREAKPOINTS) {
      requests.push(record);
      return send(
        res,
        400,
        errorBody(
          'invalid_request_error',
          `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`,
        ),
      );
    }
    const unfinished = programmaticError(body);
    if (unfinished) {
      requests.push(record);
      return send(res, 400, errorBody('invalid_request_error', unfinished));
    }
    const search = searchToolOf(body);
    if ((body.tools ?? []).length > 0 && (body.tools ?? []).every(isDeferred)) {
      requests.push(record);
      return send(
        res,
        400,
        errorBody(
          'invalid_request_error',
          'all tools have defer_loading: at least one tool (a tool search tool, or a custom tool that returns tool_reference blocks) must not be deferred',
        ),
      );
    }
    counter++;
    // Server-side tool search, as the API runs it: the search blocks lead the answer and the model goes on with what they loaded.
    let planned = body;
    let step = planNextStep(toChatRequest(planned));
    const lead: ContentBlock[] = [];
    for (
      let searches = 0;
      search && step.kind === 'tool-call' && step.name === search.name && searches < 3;
      searches++
    ) {
      const query = String(step.args.query ?? '');
      const blocks = searchBlocks(
        `srvtoolu_mock_${counter}_${searches}`,
        search,
        query,
        searchDeferred(body.tools ?? [], search, query),
      );
      lead.push(...blocks);
      planned = { ...planned, messages: [...planned.messages, { role: 'assistant', content: blocks }] };
      step = planNextStep(toChatRequest(planned));
    }
    requests.push({ ...record, step });
    // Programmatic tool calling: the call comes from the code-execution sandbox, or the finished program leads the answer.
    const program = programmaticPlan(body, step, counter);
    const meta = {
      id: `msg_mock_${counter}`,
      model: typeof body.model === 'string' ? body.model : MOCK_ANTHROPIC_MODEL,
      promptChars: raw.length,
      cache: promptCache.usage(body, raw, Math.ceil(raw.length / 4)),
      counter,
      lead: [...lead, ...program.lead],
      ...(program.caller ? { caller: program.caller } : {}),
      ...(program.container ? { container: program.container } : {}),
    };
    if (body.stream === true) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const [event, data] of events(step, meta)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
      return;
    }
    send(res, 200, message(step, meta));
  }

  return {
    url: server.origin,
    requests: recorder.requests,
    get received() {
      return recorder.received;
    },
    close: () => server.close(),
  };
}

function isMessagesRequest(body: unknown): body is MessagesRequest {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as { messages?: unknown; max_tokens?: unknown };
  return Array.isArray(record.messages) && typeof record.max_tokens === 'number';
}
