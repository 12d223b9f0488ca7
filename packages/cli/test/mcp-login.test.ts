/**
 * `tool-search mcp login|logout` against a real OAuth-protected MCP server
 * (plugin-mcp's fixture, built on the MCP SDK's server auth): login prints the
 * authorization URL and waits on the loopback redirect; the "browser" here
 * opens that URL and follows the redirects. Afterwards `tools list` reaches
 * the server with the kept tokens; logout forgets them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, folder } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('../../plugin-mcp/test/fixtures/oauth-server.mjs', import.meta.url));

describe('tool-search mcp login / logout', () => {
  let server: ChildProcess;
  let url: string;
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  const state = folder();

  beforeAll(async () => {
    server = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((resolve) =>
      server.stdout!.on(
        'data',
        (chunk: Buffer) =>
          /listening (\S+)/.exec(String(chunk))?.[1] && resolve(/listening (\S+)/.exec(String(chunk))![1]!),
      ),
    );
    cwd = folder({ 'tool-search.json': JSON.stringify({ mcp: { servers: { notes: { url } } } }) });
    env = { ...process.env, TOOL_SEARCH_STATE_DIR: state };
  });
  afterAll(() => {
    server.kill();
    rmSync(state, { recursive: true, force: true });
  });

  /** Runs the CLI; when it prints an authorization URL, "the browser" opens it. */
  async function withBrowser(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const browse = (text: string) => {
      const link = /^\s+(http\S+)$/m.exec(text)?.[1];
      if (link) void fetch(link).then((response) => response.text());
    };
    const code = await runCli(argv, {
      stdout: { write: (text: string) => ((stdout += text), browse(text)) },
      stderr: { write: (text: string) => ((stderr += text), browse(text)) },
      cwd,
      env,
    });
    return { code, stdout, stderr };
  }

  it('says to run mcp login while the server has no token', async () => {
    const { code, stdout } = await cli(['tools', 'list', '--json'], cwd, { env });
    // The only source needs a login, so nothing was listed: the command failed (exit 1), and says what to do.
    expect(code).toBe(1);
    expect(JSON.parse(stdout).diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'MCP_AUTH_REQUIRED',
        message: expect.stringContaining('tool-search mcp login notes'),
      }),
    );
  });

  it('logs in: prints the URL, takes the loopback redirect, keeps the tokens', async () => {
    const { code, stdout } = await withBrowser(['mcp', 'login', 'notes']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /Open this URL to log in to MCP server "notes":\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    expect(stdout).toMatch(/code_challenge_method=S256/);
    expect(stdout).toContain(`Logged in to "notes" (2 tools); tokens are in ${state}/mcp-auth/notes.json`);

    const listed = await cli(['tools', 'list', '--json'], cwd, { env });
    expect(JSON.parse(listed.stdout).diagnostics).toEqual([]);
    expect(listed.stdout).toContain('mcp:notes:whoami');
  });

  it('prints JSON with --json (the URL goes to stderr)', async () => {
    const { code, stdout, stderr } = await withBrowser(['mcp', 'login', 'notes', '--json']);
    expect(code).toBe(0);
    expect(stderr).toContain('Open this URL');
    expect(JSON.parse(stdout)).toEqual({
      server: 'notes',
      loggedIn: true,
      toolCount: 2,
      tokenFile: `${state}/mcp-auth/notes.json`,
    });
  });

  it('logs out, and the server needs a login again', async () => {
    expect(await cli(['mcp', 'logout', 'notes', '--json'], cwd, { env })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('"loggedOut": true'),
    });
    expect((await cli(['mcp', 'logout', 'notes'], cwd, { env })).stdout).toContain('No login was kept for "notes"');
    const { stdout } = await cli(['tools', 'list', '--json'], cwd, { env });
    expect(JSON.parse(stdout).diagnostics).toContainEqual(expect.objectContaining({ code: 'MCP_AUTH_REQUIRED' }));
  });

  it('fails with a coded JSON error when nobody comes back from the browser in time', async () => {
    const { code, stdout, stderr } = await cli(['mcp', 'login', 'notes', '--json', '--timeout', '1'], cwd, { env });
    expect(code).toBe(1);
    expect(stderr).toContain('Open this URL');
    expect(JSON.parse(stdout).error).toMatchObject({ code: 'MCP_AUTH_FAILED', details: { server: 'notes' } });
  });

  it('refuses a server the config does not have, naming the known ones', async () => {
    const { code, stderr } = await cli(['mcp', 'login', 'nope'], cwd, { env });
    expect(code).toBe(1);
    expect(stderr).toContain('known: notes');
  });
});
