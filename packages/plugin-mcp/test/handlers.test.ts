/**
 * Requests from a downstream server to its client: with handlers, sampling,
 * elicitation and roots are declared and answered (the reference server
 * "everything" drives them); without, nothing is declared and a server that
 * asks anyway is refused with a message saying what is not configured.
 */
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Run, type ToolCallOutcome, type ToolResult } from '@tool-search/kernel';
import { mcpPlugin, type McpClientHandlers, type McpPluginOptions } from '../src/index.js';
import { fixture, nodeServer } from './helpers.js';

async function withRun<T>(
  options: McpPluginOptions,
  body: (call: (id: string, args?: Record<string, unknown>) => Promise<ToolResult>, runId: string) => Promise<T>,
): Promise<T> {
  const kernel = createKernel({ plugins: [mcpPlugin(options)] });
  try {
    const run = await kernel.createRun();
    return await body(async (id, args = {}) => {
      const outcome = await run.call(id, args);
      if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
      return outcome.result;
    }, run.info.runId);
  } finally {
    await kernel.close();
  }
}

const ok = (outcome: ToolCallOutcome): ToolResult =>
  outcome.status === 'ok' ? outcome.result : (expect.fail(JSON.stringify(outcome)) as never);
const text = (result: ToolResult) => result.content.map((part) => ('text' in part ? part.text : '')).join('');

describe('with handlers and a workspace root', () => {
  const asked: { method: string; server: string; params: unknown; runs?: string[] }[] = [];
  const handlers: McpClientHandlers = {
    createMessage: async (params, { server, calls }) => {
      asked.push({ method: 'sampling', server, params, runs: calls.map((call) => call.run.runId) });
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled answer' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    },
    elicitInput: async (params, { server }) => {
      asked.push({ method: 'elicitation', server, params });
      return { action: 'decline' };
    },
  };
  const workspace = pathToFileURL('/tmp/workspace').href;

  // One server for the two tests that configure the same handlers.
  describe('sampling and elicitation', () => {
    let kernel: Kernel;
    let run: Run;
    beforeAll(async () => {
      kernel = createKernel({
        plugins: [mcpPlugin({ servers: { everything: nodeServer('server-everything', 'stdio') }, handlers })],
      });
      run = await kernel.createRun();
    });
    afterAll(() => kernel.close());

    it('answers sampling through the handler, naming the server that asked and the call in flight', async () => {
      const result = ok(await run.call('mcp:everything:trigger-sampling-request', { prompt: 'hello' }));
      expect(text(result)).toContain('sampled answer');
      expect(asked).toContainEqual(
        expect.objectContaining({ method: 'sampling', server: 'everything', runs: [run.info.runId] }),
      );
    });

    it('answers elicitation through the handler', async () => {
      ok(await run.call('mcp:everything:trigger-elicitation-request', {}));
      expect(asked).toContainEqual(expect.objectContaining({ method: 'elicitation', server: 'everything' }));
    });
  });

  it('offers the workspace as a root', async () => {
    await withRun(
      {
        servers: { everything: nodeServer('server-everything', 'stdio') },
        roots: [{ uri: workspace, name: 'workspace' }],
      },
      async (call) => {
        expect(text(await call('mcp:everything:get-roots-list'))).toContain(workspace);
      },
    );
  });
});

// One server for every refusal: each test asks it one thing.
describe('without handlers', () => {
  let kernel: Kernel;
  let run: Run;
  beforeAll(async () => {
    kernel = createKernel({ plugins: [mcpPlugin({ servers: { asks: fixture('asks') } })] });
    run = await kernel.createRun();
  });
  afterAll(() => kernel.close());

  it('declares none of sampling, elicitation, roots', async () => {
    expect(ok(await run.call('mcp:asks:capabilities', {})).structuredContent).toEqual({});
  });

  it.each([
    ['sampling/createMessage', { messages: [], maxTokens: 10 }, /no sampling handler is configured/],
    [
      'elicitation/create',
      { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
      /no elicitation handler is configured/,
    ],
    ['roots/list', {}, /no workspace is configured/],
  ])('declines %s with a message saying what is missing', async (method, params, why) => {
    const reply = ok(await run.call('mcp:asks:ask', { method, params })).structuredContent as {
      error?: { code: number; message: string };
    };
    expect(reply.error?.code).toBe(-32601);
    expect(reply.error?.message).toMatch(why);
  });
});
