/**
 * A real HTTP server speaking enough of the OpenAI API for the gateway and
 * the e2e tests: `POST /v1/chat/completions` (whole or SSE), `POST /v1/embeddings` (deterministic vectors,
 * embeddings.ts) and `GET /v1/models`.
 * It records every request exactly as received and answers with `planNextStep`.
 */
import type { ServerResponse } from 'node:http';
import { send, serveLocal, type Received } from './http.js';
import { embeddingResponse, isEmbeddingRequest } from './embeddings.js';
import { documentError } from './documents.js';
import { planNextStep } from './plan.js';
import { isResponsesRequest, planResponse, responseObject } from './responses.js';
import { programError, withProgram } from './programmatic.js';
import { createRecorder, type RecordLimits } from './record.js';
import { createPromptCache, promptOf, type PromptCacheOptions } from './prompt-cache.js';
import { chunks, completion, errorBody, MOCK_MODEL, modelList } from './response.js';
import type { ChatRequest, RecordedRequest } from './types.js';

/** The model name the embeddings route reports when the request names none. */
export const MOCK_EMBEDDING_MODEL = 'mock-embedding';

export interface MockOpenAIOptions {
  /** Port on 127.0.0.1; default 0 (a free port). */
  readonly port?: number;
  /** `/v1/embeddings` behaviour for fallback tests: answer after `delayMs`, or fail every request with `status`. */
  readonly embeddings?: { readonly delayMs?: number; readonly failStatus?: number };
  /** What `requests` keeps: the newest requests, bounded by count and body bytes (record.ts has the defaults). */
  readonly record?: RecordLimits;
  /** The prompt cache's documented limits (prompt-cache.ts): 1,024-token minimum, 128-token increments. */
  readonly promptCache?: PromptCacheOptions;
}

export interface MockOpenAI {
  /** Base URL for an OpenAI client, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** The newest requests received, in order, within `record` limits (the array is live). */
  readonly requests: RecordedRequest[];
  /** How many requests were received in all, including those no longer kept. */
  readonly received: number;
  close(): Promise<void>;
}

export async function startMockOpenAI(options: MockOpenAIOptions = {}): Promise<MockOpenAI> {
  const recorder = createRecorder(options.record);
  const requests = recorder;
  let counter = 0;
  const promptCache = createPromptCache(options.promptCache);
  const server = await serveLocal(options.port ?? 0, handle, (res, error) =>
    send(res, 400, errorBody(`Could not read the body: ${String(error)}`, 'invalid_request_error')),
  );

  function handle(res: ServerResponse, record: Received): void {
    const { method, path, raw, body } = record;
    const created = Math.floor(Date.now() / 1000);

    if (method === 'GET' && path === '/v1/models') {
      requests.push(record);
      return send(res, 200, modelList(created));
    }
    if (method === 'POST' && path === '/v1/embeddings') {
      requests.push(record);
      return embeddings(res, body);
    }
    if (method === 'POST' && path === '/v1/responses') {
      if (!isResponsesRequest(body) || (body as { stream?: unknown }).stream === true) {
        requests.push(record);
        return send(
          res,
          400,
          errorBody(
            'The body must be a JSON object with `input` (a string or an array of items); streaming is not served',
            'invalid_request_error',
            'invalid_body',
          ),
        );
      }
      const malformed = Array.isArray(body.input)
        ? documentError(body.input as ChatRequest['messages'], 'input')
        : undefined;
      if (malformed) {
        requests.push(record);
        return send(res, 400, errorBody(`Invalid file input: ${malformed}`, 'invalid_request_error', 'invalid_file'));
      }
      const unfinished = programError(body);
      if (unfinished) {
        requests.push(record);
        return send(res, 400, errorBody(unfinished, 'invalid_request_error', 'invalid_program'));
      }
      const { step, clientSearch } = planResponse(body);
      requests.push({ ...record, step });
      const id = `mock${++counter}`;
      const answer = responseObject(
        step,
        {
          id,
          created,
          model: typeof body.model === 'string' ? body.model : MOCK_MODEL,
          inputTokens: Math.ceil(raw.length / 4),
          cachedTokens: promptCache.cachedTokens(promptOf(body), Math.ceil(raw.length / 4)),
        },
        clientSearch,
      );
      // Programmatic tool calling: the call comes from a program, or the finished program leads the answer.
      return send(res, 200, { ...answer, output: withProgram(body, step, answer.output, id) });
    }
    if (method !== 'POST' || path !== '/v1/chat/completions') {
      requests.push(record);
      return send(
        res,
        404,
        errorBody(
          `Unknown route ${method} ${path}; the mock serves GET /v1/models, POST /v1/chat/completions, POST /v1/responses and POST /v1/embeddings`,
          'invalid_request_error',
          'unknown_route',
        ),
      );
    }
    if (!isChatRequest(body)) {
      requests.push(record);
      return send(
        res,
        400,
        errorBody('The body must be a JSON object with a `messages` array', 'invalid_request_error', 'invalid_body'),
      );
    }
    const malformed = documentError(body.messages);
    if (malformed) {
      requests.push(record);
      return send(res, 400, errorBody(`Invalid file input: ${malformed}`, 'invalid_request_error', 'invalid_file'));
    }
    const step = planNextStep(body);
    requests.push({ ...record, step });
    const meta = {
      id: `chatcmpl-mock-${++counter}`,
      created,
      model: typeof body.model === 'string' ? body.model : MOCK_MODEL,
      promptChars: raw.length,
      cachedTokens: promptCache.cachedTokens(promptOf(body), Math.ceil(raw.length / 4)),
    };
    if (body.stream === true) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const data of chunks(step, meta, body)) res.write(`data: ${data}\n\n`);
      res.end();
      return;
    }
    send(res, 200, completion(step, meta));
  }

  function embeddings(res: ServerResponse, body: unknown): void {
    const { delayMs = 0, failStatus } = options.embeddings ?? {};
    const answer = (): void => {
      if (res.destroyed) return;
      if (failStatus)
        return send(
          res,
          failStatus,
          errorBody(
            'The embeddings endpoint is failing (mock option embeddings.failStatus)',
            'server_error',
            'mock_failure',
          ),
        );
      if (!isEmbeddingRequest(body))
        return send(
          res,
          400,
          errorBody(
            'The body must be a JSON object with `input`: a string or a non-empty array of strings',
            'invalid_request_error',
            'invalid_body',
          ),
        );
      send(res, 200, embeddingResponse(body, typeof body.model === 'string' ? body.model : MOCK_EMBEDDING_MODEL));
    };
    if (delayMs > 0) setTimeout(answer, delayMs).unref();
    else answer();
  }

  return {
    url: `${server.origin}/v1`,
    requests: recorder.requests,
    get received() {
      return recorder.received;
    },
    close: () => server.close(),
  };
}

function isChatRequest(body: unknown): body is ChatRequest {
  return typeof body === 'object' && body !== null && Array.isArray((body as { messages?: unknown }).messages);
}
