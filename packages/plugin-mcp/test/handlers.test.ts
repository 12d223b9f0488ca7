/**
 * Requests from a downstream server to its client: with handlers, sampling,
 * elicitation and roots are declared and answered (the reference server
 * "everything" drives them); without, nothing is declared and a server that
 * asks anyway is refused with a message saying what is not configured.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createKernel, type ToolResult } from '@tool-search/kernel';
import { mcpPlugin, type McpClientHandlers, type McpPluginOptions } from '../src/index.js';
import { fixture, nodeServer } from './helpers.js';

async function withRun<T>(options: McpPluginOptions, body: (call: (id: string, args?: Record<string, unknown>) => Promise<ToolResult>) => Promise<T>): Promise<T> {
  const kernel = createKernel({ plugins: [mcpPlugin(options)] });
  try {
    const run = await kernel.createRun();
    return await body(async (id, args = {}) => {
      const outcome = await run.call(id, args);
      if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
      return outcome.result;
    });
  } finally {
    await kernel.close();
  }
}

const text = (result: ToolResult) => result.content.map((part) => ('text' in part ? part.text : '')).join('');

describe('with handlers and a workspace root', () => {
  const asked: { method: string; server: string; params: unknown }[] = [];
  const handlers: McpClientHandlers = {
    createMessage: async (params, { server }) => {
      asked.push({ method: 'sampling', server, params });
      return { role: 'assistant', content: { type: 'text', text: 'sampled answer' }, model: 'test-model', stopReason: 'endTurn' };
    },
    elicitInput: async (params, { server }) => {
      asked.push({ method: 'elicitation', server, params });
      return { action: 'decline' };
    },
  };
  const workspace = pathToFileURL('/tmp/workspace').href;

  it('answers sampling through the handler, naming the server that asked', async () => {
    await withRun({ servers: { everything: nodeServer('server-everything', 'stdio') }, handlers }, async (call) => {
      const result = await call('mcp:everything:trigger-sampling-request', { prompt: 'hello' });
      expect(text(result)).toContain('sampled answer');
    });
    expect(asked).toContainEqual(expect.objectContaining({ method: 'sampling', server: 'everything' }));
  });

  it('answers elicitation through the handler', async () => {
    await withRun({ servers: { everything: nodeServer('server-everything', 'stdio') }, handlers }, async (call) => {
      await call('mcp:everything:trigger-elicitation-request', {});
    });
    expect(asked).toContainEqual(expect.objectContaining({ method: 'elicitation', server: 'everything' }));
  });

  it('offers the workspace as a root', async () => {
    await withRun({ servers: { everything: nodeServer('server-everything', 'stdio') }, roots: [{ uri: workspace, name: 'workspace' }] }, async (call) => {
      expect(text(await call('mcp:everything:get-roots-list'))).toContain(workspace);
    });
  });
});

describe('without handlers', () => {
  it('declares none of sampling, elicitation, roots', async () => {
    await withRun({ servers: { asks: fixture('asks') } }, async (call) => {
      expect((await call('mcp:asks:capabilities')).structuredContent).toEqual({});
    });
  });

  it.each([
    ['sampling/createMessage', { messages: [], maxTokens: 10 }, /no sampling handler is configured/],
    ['elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: {} } }, /no elicitation handler is configured/],
    ['roots/list', {}, /no workspace is configured/],
  ])('declines %s with a message saying what is missing', async (method, params, why) => {
    await withRun({ servers: { asks: fixture('asks') } }, async (call) => {
      const reply = (await call('mcp:asks:ask', { method, params })).structuredContent as { error?: { code: number; message: string } };
      expect(reply.error?.code).toBe(-32601);
      expect(reply.error?.message).toMatch(why);
    });
  });
});
