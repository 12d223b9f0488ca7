import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { validateConfig } from '@tool-search/config';
import { GatewayErrors, REDACTED } from '../src/index.js';
import { codeOf, data, FILE, setup } from './setup.js';

describe('the gateway tool', () => {
  it('restart schedules the in-process restart with delayMs defaulting to 2000', async () => {
    const { call, restarts } = setup();
    expect(data(await call({ action: 'restart', reason: 'new plugin' })).restart).toEqual({
      scheduled: true,
      delayMs: 2000,
      signal: 'SIGUSR1',
    });
    await call({ action: 'restart', delayMs: 0 });
    expect(restarts).toEqual([
      { delayMs: 2000, reason: 'new plugin', action: 'restart', sessionId: 'asker' },
      { delayMs: 0, reason: 'restart', action: 'restart', sessionId: 'asker' },
    ]);
  });

  it('commands.restart: false disables restart', async () => {
    const { call, restarts } = setup({ restart: false });
    expect(codeOf(await call({ action: 'restart' }))).toBe(GatewayErrors.GATEWAY_RESTART_DISABLED);
    expect(restarts).toEqual([]);
  });

  it('config.schema.lookup returns one path, shallow, never the whole schema', async () => {
    const { call } = setup();
    const auth = data(await call({ action: 'config.schema.lookup', path: 'gateway.auth' }));
    expect(auth).toMatchObject({
      path: 'gateway.auth',
      type: 'object',
      openKeys: false,
      children: [{ key: 'token', type: 'string', required: false }],
    });
    const agent = data(await call({ action: 'config.schema.lookup', path: 'agents.list[0]' }));
    expect(agent.required).toEqual(['id']);
    expect(agent.children.map((c: { key: string }) => c.key)).toContain('tools');
    expect(JSON.stringify(agent)).not.toContain('"properties"');
    expect(
      data(await call({ action: 'config.schema.lookup', path: 'mcp.servers.*' })).children.map(
        (c: { key: string }) => c.key,
      ),
    ).toEqual(expect.arrayContaining(['command', 'url']));
    expect(codeOf(await call({ action: 'config.schema.lookup', path: 'gateway.nope' }))).toBe(
      GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN,
    );
    expect(codeOf(await call({ action: 'config.schema.lookup', path: '' }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
    expect(codeOf(await call({ action: 'config.schema.lookup', path: '.' }))).toBe(
      GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN,
    );
  });

  it('config.get returns the config with secrets redacted and its hash', async () => {
    const { call } = setup({ text: FILE });
    const got = data(await call({ action: 'config.get' }));
    expect(got.config.provider.apiKey).toBe(REDACTED);
    expect(got.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(got)).not.toContain('sk-secret');
  });

  it('config.patch merges, keeps comments and secrets given back redacted, validates, writes and restarts', async () => {
    const { call, configPath, restarts } = setup({ text: FILE, check: (config) => void validateConfig(config) });
    const { hash } = data(await call({ action: 'config.get' }));
    const patched = data(
      await call({
        action: 'config.patch',
        baseHash: hash,
        raw: `{ tools: { toolSearch: { mode: "directory" } }, provider: { apiKey: "${REDACTED}" }, session: { agentToAgent: { maxPingPongTurns: 2 } } }`,
      }),
    );
    expect(patched.changedPaths).toEqual(['tools.toolSearch.mode', 'session']);
    expect(patched.restart).toMatchObject({ scheduled: true, delayMs: 2000 });
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain("// the operator's notes stay");
    expect(text).toContain('/* the model the gateway talks to */');
    expect(text).toContain('// trailing note');
    expect(text).toContain('sk-secret');
    expect(text).toMatch(/mode: "directory"/);
    expect(restarts).toHaveLength(1);
  });

  it('config.patch with null deletes a key', async () => {
    const { call, configPath } = setup({ text: FILE });
    data(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: null } }' }));
    expect(readFileSync(configPath, 'utf8')).not.toContain('toolSearch');
  });

  it('a bad patch is refused and the file is unchanged', async () => {
    const { call, configPath, restarts } = setup({ text: FILE });
    expect(
      codeOf(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: { mode: "telepathy" } } }' })),
    ).toBe(ErrorCode.CONFIG_INVALID);
    expect(codeOf(await call({ action: 'config.patch', raw: '{ unknownSection: 1 }' }))).toBe(ErrorCode.CONFIG_INVALID);
    expect(codeOf(await call({ action: 'config.patch', raw: '{ not json5' }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
    expect(codeOf(await call({ action: 'config.patch', raw: '[1]' }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
    expect(readFileSync(configPath, 'utf8')).toBe(FILE);
    expect(restarts).toEqual([]);
  });

  it("the gateway's own checks run before a write lands", async () => {
    const { call, configPath } = setup({
      text: FILE,
      check: () => {
        throw Object.assign(new Error('plugin option broken'), { code: 'X' });
      },
    });
    expect(
      (await call({ action: 'config.patch', raw: '{ session: { agentToAgent: { maxPingPongTurns: 1 } } }' })).status,
    ).toBe('error');
    expect(readFileSync(configPath, 'utf8')).toBe(FILE);
  });

  it('a stale baseHash is refused', async () => {
    const { call, configPath } = setup({ text: FILE });
    const { hash } = data(await call({ action: 'config.get' }));
    writeFileSync(configPath, FILE.replace('"m"', '"other"'));
    expect(
      codeOf(
        await call({
          action: 'config.patch',
          baseHash: hash,
          raw: '{ session: { agentToAgent: { maxPingPongTurns: 1 } } }',
        }),
      ),
    ).toBe(GatewayErrors.GATEWAY_CONFIG_CHANGED);
    expect(readFileSync(configPath, 'utf8')).toContain('"other"');
  });

  it('config.apply validates, writes the raw config as given (its comments too) and restarts', async () => {
    const { call, configPath, restarts } = setup({ text: FILE });
    const raw = `// replaced\n{ provider: { baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: "${REDACTED}" } }\n`;
    const applied = data(await call({ action: 'config.apply', raw, delayMs: 10 }));
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain('// replaced');
    expect(text).toContain('sk-secret');
    expect(text).not.toContain('toolSearch');
    // What the restart request carries for the wake after it: the asking session, the action and the hash written.
    expect(restarts).toEqual([
      { delayMs: 10, reason: 'config.apply', action: 'config.apply', hash: applied.hash, sessionId: 'asker' },
    ]);
    expect(
      codeOf(
        await call({
          action: 'config.apply',
          raw: `{ provider: { baseURL: "http://127.0.0.1:1/v1", apiKey: "${REDACTED}", model: "m" }, tools: { toolSearch: { mode: "telepathy" } } }`,
        }),
      ),
    ).toBe(ErrorCode.CONFIG_INVALID);
    expect(readFileSync(configPath, 'utf8')).toBe(text);
  });

  it('config.apply of a redacted secret with no current value is refused', async () => {
    const { call, configPath } = setup();
    expect(
      codeOf(await call({ action: 'config.apply', raw: `{ tools: { web: { search: { apiKey: "${REDACTED}" } } } }` })),
    ).toBe(GatewayErrors.GATEWAY_SECRET_REENTER);
    expect(() => readFileSync(configPath)).toThrow();
  });

  it('config.patch creates a missing config file', async () => {
    const { call, configPath } = setup();
    data(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: { mode: "code" } } }' }));
    expect(JSON.parse(readFileSync(configPath, 'utf8'))).toEqual({ tools: { toolSearch: { mode: 'code' } } });
  });

  it('update.run is not offered, and a diagnostic says why', async () => {
    const { call, kernel } = setup();
    const run = await kernel.createRun({});
    expect(run.diagnostics.find((d) => d.code === GatewayErrors.GATEWAY_ACTION_UNAVAILABLE)?.details).toEqual({
      action: 'update.run',
    });
    await run.close();
    expect(codeOf(await call({ action: 'update.run' }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });
});
