/**
 * A real HTTP server speaking enough of the OpenAI API for the gateway and
 * the e2e tests: `POST /v1/chat/completions` (whole or SSE) and `GET /v1/models`.
 * It records every request exactly as received and answers with `planNextStep`.
 */
import type { ServerResponse } from 'node:http';
import { send, serveLocal, type Received } from './http.js';
import { planNextStep } from './plan.js';
import { chunks, completion, errorBody, MOCK_MODEL, modelList } from './response.js';
import type { ChatRequest, RecordedRequest } from './types.js';

export interface MockOpenAIOptions {
  /** Port on 127.0.0.1; default 0 (a free port). */
  readonly port?: number;
}

export interface MockOpenAI {
  /** Base URL for an OpenAI client, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** Every request received, in order (the array is live). */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startMockOpenAI(options: MockOpenAIOptions = {}): Promise<MockOpenAI> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
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
    if (method !== 'POST' || path !== '/v1/chat/completions') {
      requests.push(record);
      return send(res, 404, errorBody(`Unknown route ${method} ${path}; the mock serves GET /v1/models and POST /v1/chat/completions`, 'invalid_request_error', 'unknown_route'));
    }
    if (!isChatRequest(body)) {
      requests.push(record);
      return send(res, 400, errorBody('The body must be a JSON object with a `messages` array', 'invalid_request_error', 'invalid_body'));
    }
    const step = planNextStep(body);
    requests.push({ ...record, step });
    const meta = { id: `chatcmpl-mock-${++counter}`, created, model: typeof body.model === 'string' ? body.model : MOCK_MODEL, promptChars: raw.length };
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const data of chunks(step, meta, body)) res.write(`data: ${data}\n\n`);
      res.end();
      return;
    }
    send(res, 200, completion(step, meta));
  }

  return { url: `${server.origin}/v1`, requests, close: () => server.close() };
}

function isChatRequest(body: unknown): body is ChatRequest {
  return typeof body === 'object' && body !== null && Array.isArray((body as { messages?: unknown }).messages);
}
