/**
 * A real HTTP server speaking enough of the Anthropic Messages API for the
 * gateway and the e2e tests: `POST /v1/messages` (whole or SSE) and
 * `GET /v1/models`. The scripted model is `planNextStep` of
 * `@tool-search/mock-openai`, fed the request in chat shape, so both mocks
 * follow the same script language. Every request is recorded as received.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenLocal, parseJson, planNextStep, readBody, send, type RecordedRequest } from '@tool-search/mock-openai';
import { toChatRequest } from './convert.js';
import { errorBody, events, message, MOCK_ANTHROPIC_MODEL, modelList } from './response.js';
import type { MessagesRequest } from './types.js';

export interface MockAnthropicOptions {
  /** Port on 127.0.0.1; default 0 (a free port). */
  readonly port?: number;
}

export interface MockAnthropic {
  /** Base URL for an Anthropic client, `http://127.0.0.1:PORT` (the client adds `/v1/messages`). */
  readonly url: string;
  /** Every request received, in order (the array is live). */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startMockAnthropic(options: MockAnthropicOptions = {}): Promise<MockAnthropic> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => handle(req, res, raw),
      (error: unknown) => send(res, 400, errorBody('invalid_request_error', `Could not read the body: ${String(error)}`)),
    );
  });

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const body = parseJson(raw);
    const record = { method, path, headers: { ...req.headers }, raw, body };
    if (method === 'GET' && path === '/v1/models') {
      requests.push(record);
      return send(res, 200, modelList(new Date(0).toISOString()));
    }
    if (method !== 'POST' || path !== '/v1/messages') {
      requests.push(record);
      return send(res, 404, errorBody('not_found_error', `Unknown route ${method} ${path}; the mock serves GET /v1/models and POST /v1/messages`));
    }
    if (!isMessagesRequest(body)) {
      requests.push(record);
      return send(res, 400, errorBody('invalid_request_error', 'The body must be a JSON object with a `messages` array and `max_tokens`'));
    }
    const step = planNextStep(toChatRequest(body));
    requests.push({ ...record, step });
    counter++;
    const meta = { id: `msg_mock_${counter}`, model: typeof body.model === 'string' ? body.model : MOCK_ANTHROPIC_MODEL, promptChars: raw.length, counter };
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const [event, data] of events(step, meta)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
      return;
    }
    send(res, 200, message(step, meta));
  }

  await listenLocal(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function isMessagesRequest(body: unknown): body is MessagesRequest {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as { messages?: unknown; max_tokens?: unknown };
  return Array.isArray(record.messages) && typeof record.max_tokens === 'number';
}
