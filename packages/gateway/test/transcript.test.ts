import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import OpenAI from 'openai';
import { createKernel } from '@tool-search/kernel';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { readSessionLog, sessionFileName, telemetryPlugin } from '@tool-search/telemetry';
import { runTurn } from '@tool-search/gateway';

it('writes the session transcript: the user message, the inner calls with ids and sources, the answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-log-'));
  const provider = await startMockOpenAI();
  const kernel = createKernel({
    plugins: [
      fakeCatalogPlugin({ tools: 36, core: true }),
      toolsModePlugin(),
      telemetryPlugin({ sessionLog: { dir }, tokenizer: false }),
    ],
  });
  try {
    const result = await runTurn(
      {
        kernel,
        client: new OpenAI({ baseURL: provider.url, apiKey: 'mock', maxRetries: 0 }),
        model: 'mock-model',
        mode: 'tools',
      },
      {
        sessionId: 'transcript-1',
        messages: [{ role: 'user', content: 'tool search qa check target=fake_plugin_tool_0009' }],
      },
    );
    expect(result.message.content).toContain('FAKE_TOOL_OK');
    const entries = await readSessionLog(join(dir, sessionFileName('transcript-1')));
    const types = entries.map((entry) =>
      entry.type === 'event' ? `event:${(entry as { event: string }).event}` : entry.type,
    );
    expect(types[0]).toBe('run-start');
    expect(types).toContain('event:turn-message');
    expect(types.filter((t) => t === 'provider-request')).toHaveLength(3);
    expect(entries).toContainEqual(
      expect.objectContaining({
        type: 'tool-call',
        toolId: 'plugin:fake-catalog:fake_plugin_tool_0009',
        source: 'plugin',
        origin: 'tool_call',
      }),
    );
    expect(types.at(-1)).toBe('run-end');
  } finally {
    await kernel.close();
    await provider.close();
  }
});
