import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearch } from '@tool-search/ai-sdk';
import { logDir, offeredPerRequest, sessionLog } from '@tool-search/testing';

const GITHUB = fileURLToPath(new URL('./fixtures/github-server.mjs', import.meta.url));

// The Tool Search document's headline example, verbatim, sent by the model as `tool_search_code` through the AI SDK loop.
const HEADLINE = [
  'const hits = await openclaw.tools.search("create a GitHub issue"); // compact hits, best first; hits.truncated',
  'const tool = await openclaw.tools.describe(hits[0].id);            // full metadata with the exact inputSchema',
  'return await openclaw.tools.call(tool.id, { title: "Crash on startup", body: "Steps to reproduce..." }); // the tool\'s result',
].join('\n');

describe('AI SDK: code mode', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());

  it('runs the headline example through tool_search_code: search, describe, call a real MCP tool among the demo catalog', async () => {
    const dir = logDir();
    const search = await createToolSearch({
      config: {
        plugins: { 'fake-catalog': {} },
        mcp: { servers: { github: { command: process.execPath, args: [GITHUB] } } },
      },
      mode: 'code',
      sessionId: 'ai-code',
      sessionLogDir: dir,
    });
    const from = mock.requests.length;
    let text: string;
    try {
      expect(Object.keys(search.tools)).toContain('tool_search_code');
      expect(Object.keys(search.tools)).not.toContain('create_issue');
      ({ text } = await generateText({
        model: createOpenAI({ baseURL: mock.url, apiKey: 'test' }).chat('mock-tool-search'),
        tools: search.tools,
        prompt: `tool search qa steps ${JSON.stringify([{ tool: 'tool_search_code', args: { code: HEADLINE } }])}`,
        stopWhen: isStepCount(4),
      }));
    } finally {
      await search.close();
    }
    expect(text).toContain('created issue #1: Crash on startup');
    expect(offeredPerRequest(mock.requests.slice(from))[0]).not.toContain('create_issue');
    const log = await sessionLog(dir, 'ai-code');
    expect(log.find((entry) => entry.type === 'search')).toMatchObject({
      queries: ['create a GitHub issue'],
      origin: 'code',
    });
    expect(log.find((entry) => entry.type === 'describe')).toMatchObject({
      toolId: 'mcp:github:create_issue',
      origin: 'code',
    });
    expect(log.find((entry) => entry.type === 'tool-call')).toMatchObject({
      toolId: 'mcp:github:create_issue',
      origin: 'code',
      status: 'ok',
      searchRank: 1,
    });
    expect(log.find((entry) => entry.type === 'run-end')).toMatchObject({ searches: 1, describes: 1, calls: 1 });
  }, 120_000);
});
