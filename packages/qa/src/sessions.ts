/**
 * The session chain, end to end through the gateway's HTTP endpoint: the
 * scripted model fetches a page from a loopback server (`web_fetch` with
 * `tools.web.fetch.allowPrivate`), saves a note to memory (`write` into
 * `memory/…`), searches memory (`memory_search`) and lists its own session
 * (`sessions_list`), then spawns a sub-agent and reads its transcript.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { sessionTurnRunner, startGatewayServer } from '@tool-search/gateway';
import type { RecordedRequest } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { createSessionHost } from '@tool-search/sessions';
import { withProvider, type SuiteResult } from './suite.js';

export interface SessionChainResult {
  readonly scenario: 'core-tools-session-chain';
  readonly assertions: SuiteResult['assertions'];
  readonly ok: boolean;
}

type Assertion = { name: string; ok: boolean; detail?: string };

const FACT = 'The Orchid release ships on the 9th of March.';
const PAGE = `<!doctype html><html><head><title>Release notes</title></head><body><nav>menu</nav><article><h1>Orchid</h1><p>${FACT}</p></article></body></html>`;
const SESSION = 'e2e-session-chain';
const steps = (list: readonly object[]) => `tool search qa steps ${JSON.stringify(list)}`;

export async function runSessionChainScenario(): Promise<SessionChainResult> {
  const workspace = realpathSync(await mkdtemp(join(tmpdir(), 'tool-search-sessions-e2e-')));
  const page = await servePage();
  try {
    return await withProvider(async (provider) => {
      const config: ToolSearchConfig = {
        plugins: { core: { workspace } },
        tools: { toolSearch: false, web: { fetch: { allowPrivate: true } } } as ToolSearchConfig['tools'],
      };
      const sessionHost = createSessionHost();
      const { kernel } = await createToolSearchKernel(config, { sessionHost });
      const upstream = provider.upstream();
      sessionHost.bind(sessionTurnRunner({ kernel, upstream, mode: 'direct' }));
      const gateway = await startGatewayServer({ kernel, upstream, mode: 'direct', maxSteps: 10 });
      const first = provider.requests.length;
      try {
        const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
        const message = steps([
          { tool: 'web_fetch', args: { url: `${page.url}/notes`, extractMode: 'markdown' } },
          { tool: 'write', args: { path: 'memory/release.md', content: `# Release\n\n${FACT}\n` } },
          { tool: 'memory_search', args: { query: 'when does the Orchid release ship' } },
          { tool: 'sessions_list', args: { messageLimit: 1 } },
        ]);
        const completion = await client.chat.completions.create(
          { model: 'mock-model', messages: [{ role: 'user', content: message }] },
          { headers: { 'x-session-id': SESSION } },
        );
        const received = provider.requests.slice(first).filter((r) => r.path === provider.path);
        const results = toolMessages(received[received.length - 1]);
        const listed = parse(results[3]) as {
          sessions?: { sessionKey: string; kind: string; messages?: { role: string; content: string }[] }[];
        };
        const own = listed.sessions?.find((s) => s.sessionKey === `agent:main:${SESSION}`);
        const declared = declaredNames(received[0]);
        const stored = await sessionHost.store.get(SESSION);
        const out: Assertion[] = [
          check(
            'the gateway lists the session tools with the other core tools',
            ['sessions_list', 'sessions_spawn', 'web_fetch', 'memory_search', 'write'].every((n) =>
              declared.includes(n),
            ),
            declared.join(','),
          ),
          check(
            'web_fetch read the loopback page as markdown',
            results[0]?.includes(FACT) === true && !results[0].includes('<p>'),
            results[0],
          ),
          check(
            'write saved the note under memory/',
            (await readFile(join(workspace, 'memory/release.md'), 'utf8').catch(() => '')).includes(FACT),
          ),
          check(
            'memory_search found the note',
            results[2]?.includes('memory/release.md') === true && results[2].includes('9th of March'),
            results[2],
          ),
          check(
            'sessions_list shows the model its own session, with its first message',
            own?.kind === 'main' && own.messages?.[0]?.content === message,
            results[3],
          ),
          check(
            'the final answer carries the session list',
            (completion.choices[0]?.message.content ?? '').includes(`agent:main:${SESSION}`),
            completion.choices[0]?.message.content ?? '',
          ),
          check(
            'the store recorded the four tool calls of the turn',
            stored !== undefined && stored.messageCount >= 5,
            JSON.stringify(stored),
          ),
        ];
        out.push(...(await spawnAndRead(client)));
        return { scenario: 'core-tools-session-chain', assertions: out, ok: out.every((a) => a.ok) };
      } finally {
        await gateway.close();
        await kernel.close();
      }
    });
  } finally {
    await new Promise<void>((resolve) => page.server.close(() => resolve()));
    await rm(workspace, { recursive: true, force: true });
  }
}

/** A second turn of the same session spawns a sub-agent, waits for it with sessions_send and reads its history. */
async function spawnAndRead(client: OpenAI): Promise<Assertion[]> {
  const message = steps([
    { tool: 'sessions_spawn', args: { task: 'summarize the release notes', label: 'summary' } },
    { tool: 'sessions_send', args: { sessionId: '{{sessionId}}', message: 'anything else?', timeoutSeconds: 60 } },
    { tool: 'sessions_history', args: { sessionId: '{{sessionId}}' } },
  ]);
  const completion = await client.chat.completions.create(
    { model: 'mock-model', messages: [{ role: 'user', content: message }] },
    { headers: { 'x-session-id': SESSION } },
  );
  const history = parse((completion.choices[0]?.message.content ?? '').replace(/^Steps done\. Last result: /, '')) as {
    messages?: { role: string; content: string }[];
  };
  const users = (history.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
  return [
    check(
      'a spawned sub-agent ran its task and the follow-up in its own session',
      users.join(' | ') === 'summarize the release notes | anything else?',
      JSON.stringify(history),
    ),
  ];
}

async function servePage(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function toolMessages(request: RecordedRequest | undefined): string[] {
  const body = (request?.body ?? {}) as { messages?: { role?: string; content?: unknown }[] };
  return (body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

function declaredNames(request: RecordedRequest | undefined): string[] {
  const body = (request?.body ?? {}) as { tools?: { function?: { name?: string } }[] };
  return (body.tools ?? []).map((t) => t.function?.name ?? '');
}

function parse(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return {};
  }
}

function check(name: string, ok: boolean, detail?: string): Assertion {
  return { name, ok, ...(detail !== undefined && !ok ? { detail: detail.slice(0, 500) } : {}) };
}
