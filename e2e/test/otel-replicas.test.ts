// Real gateway and `serve mcp` processes export traces and metrics over OTLP/HTTP to a loopback receiver, each
// naming its replica as service.instance.id.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '@tool-search/testing';
import { startReplica } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS, replicaPrerequisites } from './replica-prerequisites.js';

const { built } = replicaPrerequisites('the OTLP export e2e test', { redis: false });

let receiver: OtlpReceiver;
let base: string;
beforeAll(async () => {
  if (!built) return;
  receiver = await startOtlpReceiver();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'otel-replicas-')));
  mkdirSync(join(base, 'workspace'));
  writeFileSync(join(base, 'workspace', 'notes.txt'), 'hello from the workspace\n');
  const config = {
    plugins: { core: { workspace: join(base, 'workspace') } },
    tools: { toolSearch: false },
    telemetry: {
      otlp: {
        endpoint: receiver.url,
        headers: { 'x-collector-key': 'e2e' },
        exportIntervalMs: 3_600_000,
        serviceName: 'tool-search-e2e',
      },
    },
  };
  writeFileSync(join(base, 'tool-search.json'), JSON.stringify(config));
});
afterAll(async () => {
  await receiver?.close();
});

describe.skipIf(!built)('OTLP export from real replicas', () => {
  it(
    'a gateway replica exports its run and call spans and call metrics, flushed when it stops',
    async () => {
      const gateway = await startReplica({
        id: 'gw-otel',
        args: [
          'gateway',
          '--config',
          join(base, 'tool-search.json'),
          '--provider-mode',
          'mock-openai',
          '--approvals',
          'deny',
        ],
        cwd: base,
        startTimeoutMs: REPLICA_START_MS,
      });
      try {
        const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
        const content = `tool search qa steps ${JSON.stringify([{ tool: 'read', args: { path: 'notes.txt' } }])}`;
        const completion = await client.chat.completions.create({
          model: 'mock-model',
          messages: [{ role: 'user', content }],
        });
        expect(completion.choices[0]?.message.content).toContain('hello from the workspace');
      } finally {
        await gateway.stop('SIGTERM'); // shutdown flushes: the long export interval never elapsed
      }
      expect(receiver.rejected).toEqual([]);
      const mine = receiver.spans.filter((s) => s.resource['service.instance.id'] === 'gw-otel');
      expect(mine.every((s) => s.resource['service.name'] === 'tool-search-e2e')).toBe(true);
      expect(mine.find((s) => s.name === 'tool_search.call')).toMatchObject({
        attributes: { 'tool.name': 'read', status: 'ok' },
      });
      expect(mine.some((s) => s.name === 'tool_search.run')).toBe(true);
      const calls = receiver.metrics.filter(
        (m) => m.name === 'tool_search.calls' && m.resource['service.instance.id'] === 'gw-otel',
      );
      expect(calls.flatMap((m) => m.points).some((p) => p.attributes.status === 'ok' && p.value >= 1)).toBe(true);
      expect(receiver.headers.every((h) => h['x-collector-key'] === 'e2e')).toBe(true);
    },
    REPLICA_BUDGET_MS,
  );

  it(
    'a serve mcp --http replica exports under its own replica id',
    async () => {
      const mcp = await startReplica({
        id: 'mcp-otel',
        args: ['serve', 'mcp', '--config', join(base, 'tool-search.json'), '--http', '0'],
        cwd: base,
        startTimeoutMs: REPLICA_START_MS,
      });
      await mcp.stop('SIGTERM');
      const mine = receiver.spans.filter((s) => s.resource['service.instance.id'] === 'mcp-otel');
      expect(mine.some((s) => s.name === 'tool_search.run')).toBe(true); // the warm-up run it does before printing its URL
    },
    REPLICA_BUDGET_MS,
  );
});
