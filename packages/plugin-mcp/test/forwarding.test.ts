/**
 * CallForwarding on a real SDK client/server pair (in-memory transport):
 * requests from the server reach the one front-end session with a call in
 * flight, are refused with no call or with calls of two sessions (never sent
 * to the wrong client), and logs go to the call of the one session with calls
 * in flight or, outside calls and during calls of several sessions, to events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode as McpErrorCode,
  type CreateMessageResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpClientHandlers } from '../src/handlers.js';
import {
  CallForwarding,
  FORWARDING_CAPABILITIES,
  type DownstreamEvent,
  type McpCallForwarding,
} from '../src/forwarding.js';

const answer = (text: string): CreateMessageResult => ({
  role: 'assistant',
  model: 'm',
  content: { type: 'text', text },
});
const ask = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 5 };

async function pair(fallback?: McpClientHandlers) {
  const events: DownstreamEvent[] = [];
  const forwarding = new CallForwarding('srv', (event) => void events.push(event));
  const client = new Client({ name: 'c', version: '1' }, { capabilities: FORWARDING_CAPABILITIES });
  forwarding.install(client, FORWARDING_CAPABILITIES, fallback);
  const server = new Server({ name: 's', version: '1' }, { capabilities: { logging: {} } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  return { forwarding, client, server, events };
}

function caller(session: string, logs: LoggingMessageNotification['params'][] = []): McpCallForwarding {
  return { session, createMessage: async () => answer(session), onLog: (params) => void logs.push(params) };
}

const open: Server[] = [];
afterEach(async () => Promise.all(open.splice(0).map((server) => server.close())));

describe('CallForwarding', () => {
  it('sends a request to the one session with a call in flight, and refuses it outside calls', async () => {
    const { forwarding, server } = await pair();
    open.push(server);
    await expect(server.createMessage(ask)).rejects.toMatchObject({ code: McpErrorCode.InvalidRequest });
    const call = forwarding.begin(caller('a'));
    const second = forwarding.begin(caller('a'));
    await expect(server.createMessage(ask)).resolves.toMatchObject({ content: { text: 'a' } });
    call.end();
    second.end();
    await expect(server.createMessage(ask)).rejects.toMatchObject({ code: McpErrorCode.InvalidRequest });
  });

  it('refuses a request while calls of two sessions are in flight', async () => {
    const { forwarding, server } = await pair();
    open.push(server);
    forwarding.begin(caller('a'));
    const b = forwarding.begin(caller('b'));
    await expect(server.createMessage(ask)).rejects.toMatchObject({ code: McpErrorCode.InvalidRequest });
    b.end();
    await expect(server.createMessage(ask)).resolves.toMatchObject({ content: { text: 'a' } });
  });

  it("answers with the plugin's own handler when no forwarded call is in flight", async () => {
    const { forwarding, server } = await pair({
      createMessage: async (_params, { server: name }) => answer(`own ${name}`),
    });
    open.push(server);
    await expect(server.createMessage(ask)).resolves.toMatchObject({ content: { text: 'own srv' } });
    const call = forwarding.begin(caller('a'));
    await expect(server.createMessage(ask)).resolves.toMatchObject({ content: { text: 'a' } });
    call.end();
  });

  it('refuses when the calling client did not declare the capability', async () => {
    const { forwarding, server } = await pair();
    open.push(server);
    forwarding.begin({ session: 'a' });
    await expect(server.createMessage(ask)).rejects.toMatchObject({ code: McpErrorCode.InvalidRequest });
    await expect(
      server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }),
    ).rejects.toMatchObject({ code: McpErrorCode.InvalidRequest });
  });

  it('gives logs to the call in flight, tagged with the server, and to events otherwise', async () => {
    const { forwarding, server, events } = await pair();
    open.push(server);
    const logs: LoggingMessageNotification['params'][] = [];
    const call = forwarding.begin(caller('a', logs));
    await server.sendLoggingMessage({ level: 'info', logger: 'db', data: 'during' });
    await server.sendLoggingMessage({ level: 'info', data: 'plain' });
    await server.ping();
    call.end();
    await server.sendLoggingMessage({ level: 'info', data: 'after' });
    await server.ping();
    expect(logs).toEqual([
      { level: 'info', logger: 'srv:db', data: 'during' },
      { level: 'info', logger: 'srv', data: 'plain' },
    ]);
    expect(events).toEqual([{ type: 'log', server: 'srv', params: { level: 'info', logger: 'srv', data: 'after' } }]);
  });

  it('gives a log during calls of two sessions to neither session (it names no request), only to events', async () => {
    const { forwarding, server, events } = await pair();
    open.push(server);
    const a: LoggingMessageNotification['params'][] = [];
    const b: LoggingMessageNotification['params'][] = [];
    const callA = forwarding.begin(caller('a', a));
    const callB = forwarding.begin(caller('b', b));
    await server.sendLoggingMessage({ level: 'info', data: 'whose?' });
    await server.ping();
    callB.end();
    await server.sendLoggingMessage({ level: 'info', data: 'a alone' });
    await server.ping();
    callA.end();
    expect(b).toEqual([]);
    expect(a.map((log) => log.data)).toEqual(['a alone']);
    expect(events).toEqual([{ type: 'log', server: 'srv', params: { level: 'info', logger: 'srv', data: 'whose?' } }]);
  });
});
