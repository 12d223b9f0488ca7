/**
 * Policy by agent reaches resources, prompts and completions through the
 * API key: a session whose key runs as an agent that may see none of a
 * server's tools gets none of that server's resources, prompts or
 * completions — on the replica that opened it and on one that rebuilds it
 * from the shared record — while another key's session sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode as McpErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { MemoryStateStore } from '@tool-search/state';
import { RESOURCE_NOT_FOUND, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';

const OPS_KEY = 'ops-key-0123456789abcdef';
const CI_KEY = 'ci-key-0123456789abcdefg';
const fixture = { command: process.execPath, args: [CONFORMANCE_FIXTURE] };

describe('per-agent policy on resources, prompts and completions, chosen by the key', () => {
  let kernel: Kernel;
  let state: MemoryStateStore;
  const replicas: HttpMcpHandle[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    const preset = await createToolSearchKernel({
      mcpServers: { conf: fixture },
      agents: {
        list: [
          { id: 'ops', default: true },
          { id: 'ci', tools: { deny: ['mcp:conf:*'] } },
        ],
      },
    });
    kernel = preset.kernel;
    const auth = createApiKeys({
      keys: [
        { name: 'ops', hash: hashApiKey(OPS_KEY), agents: ['ops'] },
        { name: 'ci', hash: hashApiKey(CI_KEY), agents: ['ci'] },
      ],
    });
    state = new MemoryStateStore();
    for (const store of [state, state.asReplica('second')]) {
      replicas.push(
        await serveHttp({
          kernel,
          mode: 'tools',
          refreshIntervalMs: 0,
          auth,
          state: store,
          ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
        }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(replicas.map((r) => r.close()));
    await state?.close();
    await kernel?.close();
  });

  async function connect(
    url: string,
    key: string,
    sessionId?: string,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      ...(sessionId ? { sessionId } : {}),
    });
    const client = new Client({ name: 'auth-policy-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  it('shows the server to the key whose agent may see its tools', async () => {
    const { client } = await connect(replicas[0]!.url, OPS_KEY);
    expect((await client.listResources()).resources.some((r) => r.uri.startsWith('tool-search://conf/'))).toBe(true);
    expect((await client.listPrompts()).prompts.some((p) => p.name.startsWith('conf:'))).toBe(true);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'conf:test_prompt_with_arguments' },
      argument: { name: 'language', value: 'p' },
    });
    expect(completion.completion.values).toContain('python');
  });

  it('hides it from the key whose agent may see none of them, on both replicas', async () => {
    const { client, transport } = await connect(replicas[0]!.url, CI_KEY);
    const checks = async (c: Client) => {
      expect((await c.listResources()).resources).toEqual([]);
      expect((await c.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await c.listPrompts()).prompts).toEqual([]);
      await expect(c.readResource({ uri: 'tool-search://conf/test://static-text' })).rejects.toMatchObject({
        code: RESOURCE_NOT_FOUND,
      });
      await expect(c.readResource({ uri: 'test://static-text' })).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND });
      await expect(c.getPrompt({ name: 'test_simple_prompt' })).rejects.toMatchObject({
        code: McpErrorCode.InvalidParams,
      });
      await expect(
        c.complete({
          ref: { type: 'ref/prompt', name: 'conf:test_prompt_with_arguments' },
          argument: { name: 'language', value: 'p' },
        }),
      ).rejects.toMatchObject({
        code: McpErrorCode.InvalidParams,
      });
      await expect(
        c.complete({
          ref: { type: 'ref/resource', uri: 'tool-search://conf/test://template/{id}/data' },
          argument: { name: 'id', value: '1' },
        }),
      ).rejects.toMatchObject({
        code: RESOURCE_NOT_FOUND,
      });
    };
    await checks(client);
    // The same session on the other replica: rebuilt from its record, still as agent ci.
    const rebuilt = new Client({ name: 'auth-policy-test', version: '1.0.0' });
    const again = new StreamableHTTPClientTransport(new URL(replicas[1]!.url), {
      requestInit: { headers: { authorization: `Bearer ${CI_KEY}` } },
      sessionId: transport.sessionId!,
    });
    // The session exists: connect without initialize by handing the transport its id (the SDK skips initialize when one is set).
    await rebuilt.connect(again);
    clients.push(rebuilt);
    expect(again.sessionId).toBe(transport.sessionId);
    await checks(rebuilt);
    expect(replicas[1]!.sessions).toBe(1);
  });
});
