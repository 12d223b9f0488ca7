/**
 * A command whose main job failed exits non-zero and says why: every tool source failing (MCP servers that do not
 * start, a server that hangs, an HTTP server nobody answers, a plugin whose listing throws); a partial failure only
 * with --strict. A call to a tool of a failed server names the server; a timeout names the setting that moves it.
 */
import { describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { cli, folder } from './helpers.js';

const NODE = JSON.stringify(process.execPath);
const exits = `{ command: ${NODE}, args: ["-e", "process.exit(3)"] }`;
// Never answers a request; leaves when its stdin closes (as a stdio server does), so closing it costs no shutdown grace.
const hangs = `{ command: ${NODE}, args: ["-e", "process.stdin.resume().on('end', () => process.exit(0))"] }`;

describe('every tool source failed', () => {
  it('tools list exits 1 when every MCP server failed, and --json stays one document on stdout', async () => {
    const cwd = folder({ 'tool-search.json': `{ mcp: { servers: { broken: ${exits}, other: ${exits} } } }` });
    const text = await cli(['tools', 'list'], cwd);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('MCP_SERVER_FAILED');
    expect(text.stderr).toMatch(/error: no tools: every tool source that ran failed/);
    const json = await cli(['tools', 'list', '--json'], cwd);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ tools: [] });
  });

  it('an HTTP MCP server nobody answers is a failure too', async () => {
    const cwd = folder({ 'tool-search.json': '{ mcp: { servers: { remote: { url: "http://127.0.0.1:9/mcp" } } } }' });
    const { code, stderr } = await cli(['tools', 'search', 'anything'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('remote');
  });

  it('a plugin whose listing throws, as the only source, fails the command', async () => {
    const throwing: KernelPlugin = {
      name: 'throwing-source',
      apply({ hooks }) {
        hooks.listTools.tapPromise(async () => {
          throw new Error('the catalog service is down');
        });
      },
    };
    const { code, stderr } = await cli(['exposure', '--mode', 'tools'], folder(), { plugins: [throwing] });
    expect(code).toBe(1);
    expect(stderr).toContain('SOURCE_FAILED');
  });

  it('a partial failure is a warning, and an error with --strict', async () => {
    const cwd = folder({
      'tool-search.json': `{ plugins: { "fake-catalog": { tools: 3 } }, mcp: { servers: { broken: ${exits} } } }`,
    });
    const loose = await cli(['tools', 'list'], cwd);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toMatch(/warning: 1 tool source failed .*--strict makes this exit 1/);
    const strict = await cli(['tools', 'list', '--strict'], cwd);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict');
  });
});

describe('tools call of a tool whose MCP server failed', () => {
  it('says MCP_SERVER_UNAVAILABLE with the reason, as serve mcp does, not UNKNOWN_TOOL', async () => {
    const cwd = folder({ 'tool-search.json': `{ mcp: { servers: { broken: ${exits} } } }` });
    const { code, stdout } = await cli(['tools', 'call', 'mcp:broken:echo', '--json'], cwd);
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as {
      error: { code: string; message: string; details: Record<string, unknown> };
    };
    expect(error.code).toBe('MCP_SERVER_UNAVAILABLE');
    expect(error.details).toMatchObject({ server: 'broken', requested: 'mcp:broken:echo' });
    expect(error.message).toContain('broken');
  });

  it('keeps UNKNOWN_TOOL for a server that is not configured at all', async () => {
    const cwd = folder({ 'tool-search.json': `{ plugins: { "fake-catalog": { tools: 3 } } }` });
    const { code, stdout } = await cli(['tools', 'call', 'mcp:nowhere:echo', '--json'], cwd);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error.code).toBe('UNKNOWN_TOOL');
  });
});

describe('timeouts name the setting that moves them', () => {
  it('a hanging MCP server: mcp.connectTimeoutMs', async () => {
    // The server never answers, so any bound times out: a short one keeps the wait short.
    const cwd = folder({ 'tool-search.json': `{ mcp: { connectTimeoutMs: 500, servers: { stuck: ${hangs} } } }` });
    const { code, stdout } = await cli(['tools', 'list', '--json'], cwd);
    expect(code).toBe(1);
    const [diagnostic] = JSON.parse(stdout).diagnostics as {
      code: string;
      message: string;
      details: { reason: string };
    }[];
    expect(diagnostic).toMatchObject({ code: 'MCP_SERVER_FAILED', details: { reason: 'timeout' } });
    expect(diagnostic!.message).toContain('within 500 ms');
    expect(diagnostic!.message).toContain('mcp.connectTimeoutMs');
  });

  it('code past its time: tools.toolSearch.codeTimeoutMs', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ plugins: { "fake-catalog": { tools: 3 } }, tools: { toolSearch: { codeTimeoutMs: 500 } } }',
    });
    const { code, stdout } = await cli(['code', 'run', '--eval', 'while (true) {}', '--json'], cwd);
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(result.error.code).toBe('CODE_TIMEOUT');
    expect(result.error.message).toContain('tools.toolSearch.codeTimeoutMs');
  });
});

describe('code run without a return value', () => {
  it('says the code returned nothing instead of printing nothing', async () => {
    const cwd = folder({ 'tool-search.json': '{ plugins: { "fake-catalog": { tools: 3 } } }' });
    const { code, stdout, stderr } = await cli(['code', 'run', '--eval', 'await openclaw.tools.search("read")'], cwd);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('returned no value');
  });
});

describe('start-up', () => {
  it('--help and a mistyped command load no catalog: no demo-catalog notice', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('exposure');
    expect(help.stderr).toBe('');
    const typo = await cli(['tols', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).not.toContain('demo catalog');
    expect(typo.stderr).toContain('tools');
  });
});
