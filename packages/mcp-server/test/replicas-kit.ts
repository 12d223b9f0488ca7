/**
 * What the replica tests share: a kernel whose tools show which run session
 * they ran in (and elicit, and wait for a cancel), the SDK client behind an
 * in-test round-robin, and raw requests in a session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallForwarding } from '@tool-search/plugin-mcp';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';

export type Name = 'a' | 'b';

type Elicit = NonNullable<McpCallForwarding['elicitInput']>;

/** Calls of `wait` in flight: each resolves its `aborted` when its signal aborts. */
export const waiting: { started: () => void; aborted: () => void }[] = [];

/** `whoami` answers with the run session id it ran under; `ask` elicits a name from the client, when the server knows the client can be asked; `wait` waits for its cancel. */
export function whoamiKernel(): Kernel {
  const plugin: KernelPlugin = {
    name: 'whoami-plugin',
    apply({ hooks }) {
      hooks.listTools.tap((sink) =>
        sink.add([
          {
            name: 'whoami',
            source: 'plugin',
            owner: 'test',
            description: 'Says which run session it runs in',
            inputSchema: { type: 'object', properties: {} },
            execute: (_args, ctx) => ({ content: [{ type: 'text', text: ctx.run.sessionId }] }),
          },
          {
            name: 'wait',
            source: 'plugin',
            owner: 'test',
            description: 'Waits until cancelled',
            inputSchema: { type: 'object', properties: {} },
            execute: (_args, ctx) =>
              new Promise((resolve) => {
                const hooks = waiting.shift();
                ctx.signal.addEventListener('abort', () => {
                  hooks?.aborted();
                  resolve({ content: [{ type: 'text', text: 'cancelled' }] });
                });
                hooks?.started();
              }),
          },
          {
            name: 'ask',
            source: 'plugin',
            owner: 'test',
            description: 'Asks the client for a name',
            inputSchema: { type: 'object', properties: {} },
            execute: async (_args, ctx) => {
              const elicit = (ctx.scope as { mcp?: { elicitInput?: Elicit } } | undefined)?.mcp?.elicitInput;
              if (!elicit) return { content: [{ type: 'text', text: 'cannot ask' }] };
              const answer = await elicit(
                {
                  message: 'Your name?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                },
                ctx.signal,
              );
              return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
            },
          },
        ]),
      );
      hooks.materialize.for('directory').tap((draft, ctx) => {
        draft.tools.push(
          ...ctx.searchable.map((tool) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            toolId: tool.id,
          })),
        );
        return draft;
      });
    },
  };
  return createKernel({ plugins: [plugin] });
}

export interface Balanced {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Which replica got each request, and its JSON-RPC method (or the HTTP method). */
  readonly log: { replica: Name; what: string }[];
  /** Sends every request to one replica (undefined: alternate POST and DELETE; the GET stream stays on `a`). */
  pin(replica: Name | undefined): void;
  /** `data` of the log messages the client got. */
  readonly logs: unknown[];
}

/** The SDK client behind an in-test round-robin: its `fetch` goes to the next replica in turn. */
export async function connectBalanced(urls: Record<Name, string>, pinned?: Name): Promise<Balanced> {
  const log: Balanced['log'] = [];
  let turn = 0;
  const transport = new StreamableHTTPClientTransport(new URL(urls.a), {
    fetch: (input, init) => {
      const method = init?.method ?? 'GET';
      const replica: Name = pinned ?? (method === 'GET' ? 'a' : turn++ % 2 === 0 ? 'a' : 'b');
      const what =
        typeof init?.body === 'string' ? ((JSON.parse(init.body) as { method?: string }).method ?? 'response') : method;
      log.push({ replica, what });
      return fetch(urls[replica], init);
    },
  });
  // Declares elicitation: a replica that rebuilt the session knows it only from the replayed initialize.
  const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'ada', approve: true } }));
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void logs.push(params.data));
  await client.connect(transport);
  return { client, transport, log, logs, pin: (replica) => void (pinned = replica) };
}

/** A raw request in an existing session (status and parsed JSON-RPC error, if any). */
export async function raw(
  url: string,
  sessionId: string,
  method = 'POST',
): Promise<{ status: number; error?: { data?: { code?: string } } }> {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
    },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) } : {}),
  });
  const body = await response.text();
  return {
    status: response.status,
    ...(response.headers.get('content-type')?.includes('json') && body ? (JSON.parse(body) as object) : {}),
  };
}

export const records = (state: StateStore, sessionId: string) => state.get(`mcp:session:${sessionId}`);
