/**
 * The CLI answers what downstream servers ask: sampling through the configured
 * provider (here the OpenAI-wire mock on real HTTP), elicitation through the
 * approvals prompt (a TTY answering y or n), and neither is declared when not
 * configured (the reference server "everything" then does not offer the tools).
 */
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { cli, folder } from './helpers.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const servers = { everything: { command: process.execPath, args: [everything, 'stdio'] } };
// plugin-mcp's fixture server whose `ask` tool sends the client any request.
const asks = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../../plugin-mcp/test/fixtures/misbehaving-server.mjs', import.meta.url)), 'asks'],
};
const confirm = {
  method: 'elicitation/create',
  params: {
    message: 'Delete the draft?',
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', default: true } },
      required: ['confirm'],
    },
  },
};

function tty(answer: string): PassThrough & { isTTY: boolean } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  stdin.write(`${answer}\n`);
  return stdin;
}

describe('sampling and elicitation from a downstream MCP server', () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterAll(() => mock.close());

  it('samples through the configured provider', async () => {
    const cwd = folder({
      'tool-search.json': JSON.stringify({
        mcp: { servers },
        provider: { baseURL: mock.url, apiKey: 'mock', model: 'mock-model' },
      }),
    });
    const { code, stdout } = await cli(
      ['tools', 'call', 'mcp:everything:trigger-sampling-request', '--args', '{"prompt":"say hi"}', '--json'],
      cwd,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('Mock model');
    const sampled = mock.requests.find((request) => JSON.stringify(request.body).includes('say hi'));
    expect(sampled?.body).toMatchObject({
      model: 'mock-model',
      max_completion_tokens: 100,
      messages: [{ role: 'system' }, { role: 'user' }],
    });
  }, 60_000);

  it('asks elicitation through the approvals prompt: y accepts with the defaults, n declines', async () => {
    const cwd = folder({ 'tool-search.json': JSON.stringify({ mcp: { servers: { asks } } }) });
    const call = (answer: string) =>
      cli(['tools', 'call', 'mcp:asks:ask', '--args', JSON.stringify(confirm), '--json'], cwd, { stdin: tty(answer) });
    const yes = await call('y');
    expect(yes.stderr).toContain('elicitation from asks');
    expect(JSON.parse(yes.stdout).result.structuredContent.result).toEqual({
      action: 'accept',
      content: { confirm: true },
    });
    const no = await call('n');
    expect(JSON.parse(no.stdout).result.structuredContent.result).toEqual({ action: 'decline' });
  }, 60_000);

  it('declines a form that yes or no cannot fill (a required field without default) without asking', async () => {
    const cwd = folder({ 'tool-search.json': JSON.stringify({ mcp: { servers } }) });
    const { stdout, stderr } = await cli(
      ['tools', 'call', 'mcp:everything:trigger-elicitation-request', '--json'],
      cwd,
      { stdin: tty('y') },
    );
    expect(stderr).not.toContain('elicitation from');
    expect(stdout).toMatch(/declin/i);
  }, 60_000);

  it('declares neither without a provider and without a prompt', async () => {
    const cwd = folder({ 'tool-search.json': JSON.stringify({ mcp: { servers } }) });
    const { stdout } = await cli(['tools', 'list', '--json'], cwd);
    expect(stdout).toContain('mcp:everything:echo');
    expect(stdout).not.toContain('trigger-sampling-request');
    expect(stdout).not.toContain('trigger-elicitation-request');
  }, 60_000);
});
