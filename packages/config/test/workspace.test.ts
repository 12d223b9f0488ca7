/**
 * Issue #40, item 1: the workspace (what agents write) never contains the config file, plugin modules, session logs
 * or the cron folder. The old default was the config file's own folder, so `write` could replace tool-search.json.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { checkWorkspaces, loadConfig } from '../src/index.js';

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-ws-'));
  writeFileSync(join(dir, 'tool-search.json'), text);
  return dir;
}

async function refusal(dir: string): Promise<{ path: string; rule: string; details: Record<string, string> } & Error> {
  const error = await loadConfig({ cwd: dir }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toMatchObject({ code: ErrorCode.CONFIG_INVALID, rule: 'workspaceContains' });
  return error as never;
}

describe('the default workspace', () => {
  it("is the folder `workspace` in the config file's folder, not that folder itself", async () => {
    const dir = configFile('{ plugins: { core: {} } }');
    const { config } = await loadConfig({ cwd: dir });
    expect(config.plugins?.core?.workspace).toBe(join(dir, 'workspace'));
  });

  it('is refused too when a configured path lies inside it (sessions in workspace/sessions)', async () => {
    const dir = configFile('{ plugins: { core: {} }, gateway: { sessions: { dir: "workspace/sessions" } } }');
    const error = await refusal(dir);
    expect(error.path).toBe('/plugins/core/workspace');
    expect(error.details).toMatchObject({
      workspace: join(dir, 'workspace'),
      contains: join(dir, 'workspace/sessions'),
    });
  });
});

describe('a configured workspace that contains what the gateway runs or reads', () => {
  it.each([
    ['the config folder', '"."'],
    ['an ancestor of the config folder', '".."'],
  ])('%s is refused, naming the workspace and the config file', async (_, workspace) => {
    const dir = configFile(`{ plugins: { core: { workspace: ${workspace} } } }`);
    const error = await refusal(dir);
    expect(error.path).toBe('/plugins/core/workspace');
    expect(error.details.contains).toBe(join(dir, 'tool-search.json'));
    expect(error.message).toContain(error.details.workspace);
    expect(error.message).toContain(join(dir, 'tool-search.json'));
  });

  it('the sessions folder: refused, the message naming both paths', async () => {
    const dir = configFile(
      '{ plugins: { core: { workspace: "data" } }, gateway: { sessions: { dir: "data/sessions" } } }',
    );
    const error = await refusal(dir);
    expect(error.details).toMatchObject({ workspace: join(dir, 'data'), contains: join(dir, 'data/sessions') });
    expect(error.message).toContain(join(dir, 'data'));
    expect(error.message).toContain(join(dir, 'data/sessions'));
  });

  it('session.logDir, the cron folder beside the session logs, and a ./ plugin module are each refused', async () => {
    const logs = configFile('{ plugins: { core: { workspace: "w" } }, session: { logDir: "w/logs" } }');
    expect((await refusal(logs)).details.contains).toBe(join(logs, 'w/logs'));
    // Sessions in state/sessions put cron jobs in state/cron: a workspace there could write jobs.json.
    const cron = configFile(
      '{ plugins: { core: { workspace: "state/cron" } }, gateway: { sessions: { dir: "state/sessions" } } }',
    );
    expect((await refusal(cron)).details).toMatchObject({
      contains: join(cron, 'state/cron'),
      what: 'the cron folder',
    });
    const plugin = configFile('{ plugins: { core: { workspace: "plugins" }, "./plugins/mine.js": {} } }');
    expect((await refusal(plugin)).details.contains).toBe(join(plugin, 'plugins/mine.js'));
  });

  it('a symlink does not hide the config folder: a workspace linking to it is refused', async () => {
    const dir = configFile('{ plugins: { core: { workspace: "link" } } }');
    symlinkSync(dir, join(dir, 'link'));
    expect((await refusal(dir)).details.contains).toBe(join(dir, 'tool-search.json'));
  });

  it('nor a config file that is a link into the workspace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-ws-'));
    const ws = mkdtempSync(join(tmpdir(), 'tool-search-ws-'));
    writeFileSync(join(ws, 'real.json'), `{ plugins: { core: { workspace: ${JSON.stringify(ws)} } } }`);
    symlinkSync(join(ws, 'real.json'), join(dir, 'tool-search.json'));
    expect((await refusal(dir)).details).toMatchObject({ workspace: ws, contains: join(dir, 'tool-search.json') });
  });

  it('nor a sessions folder reached through a link the agent could swap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-ws-'));
    mkdirSync(join(dir, 'ws'));
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'ws', 'link'));
    const config = { plugins: { core: { workspace: join(dir, 'ws') } }, gateway: { sessions: { dir: 'ws/link/s' } } };
    expect(() => checkWorkspaces(config, dir)).toThrow(expect.objectContaining({ rule: 'workspaceContains' }));
  });

  it('agents.defaults.workspace, offered to MCP servers as their root, is checked the same way', async () => {
    const dir = configFile('{ agents: { defaults: { workspace: "." } }, mcpServers: { fs: { command: "true" } } }');
    expect((await refusal(dir)).path).toBe('/agents/defaults/workspace');
    // Without an MCP server it is not acted on, so not checked.
    await expect(
      loadConfig({ cwd: configFile('{ agents: { defaults: { workspace: "." } } }') }),
    ).resolves.toBeDefined();
  });

  it('a workspace inside the config folder, beside the sessions and cron folders, is fine', async () => {
    const dir = configFile(
      '{ plugins: { core: { workspace: "project" }, "./plugins/mine.js": {} }, gateway: { sessions: { dir: "state/sessions" } } }',
    );
    expect((await loadConfig({ cwd: dir })).config.plugins?.core?.workspace).toBe(join(dir, 'project'));
  });

  it('extra paths a front end knows (the state folder) are refused the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-ws-'));
    const config = { plugins: { core: { workspace: dir } } };
    const extra = [{ what: 'the state folder', path: join(dir, '.local/state/tool-search') }];
    expect(() => checkWorkspaces(config, dir, { extra })).toThrow(
      expect.objectContaining({
        code: ErrorCode.CONFIG_INVALID,
        details: expect.objectContaining({ what: 'the state folder' }),
      }),
    );
  });
});
