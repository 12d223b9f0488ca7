import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ErrorCode } from '@tool-search/kernel';
import { loadConfig, parseConfig } from '../src/index.js';

function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-config-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof ConfigError) return error;
  throw new Error(`expected a ConfigError, got ${String(error)}`);
}

describe('loadConfig', () => {
  it('reads tool-search.json from the working folder', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { profile: "coding" } } // json5' });
    const loaded = await loadConfig({ cwd });
    expect(loaded.config.tools?.profile).toBe('coding');
    expect(loaded.path).toBe(join(cwd, 'tool-search.json'));
  });

  it('returns an empty config when the working folder has no file', async () => {
    const cwd = folder();
    expect(await loadConfig({ cwd })).toEqual({ config: {}, dir: cwd });
  });

  it('resolves an explicit path against cwd', async () => {
    const cwd = folder({ 'other.json5': '{ session: { logDir: "logs" } }' });
    expect((await loadConfig({ cwd, path: 'other.json5' })).config.session?.logDir).toBe(join(cwd, 'logs'));
  });

  it("resolves session.logDir against the config file's folder, not the process's cwd", async () => {
    const cwd = folder({
      'conf/tool-search.json': '{ session: { logDir: "logs" }, gateway: { sessions: { dir: "../s" } } }',
      'abs.json': `{ session: { logDir: ${JSON.stringify(join(tmpdir(), 'abs-logs'))} } }`,
    });
    const loaded = await loadConfig({ cwd, path: 'conf/tool-search.json' });
    expect(loaded.config.session?.logDir).toBe(join(cwd, 'conf', 'logs'));
    expect(loaded.config.gateway?.sessions?.dir).toBe(join(cwd, 's'));
    expect(loaded.dir).toBe(join(cwd, 'conf'));
    expect((await loadConfig({ cwd, path: 'abs.json' })).config.session?.logDir).toBe(join(tmpdir(), 'abs-logs'));
  });

  it('fails with CONFIG_UNREADABLE when an explicit path does not exist', async () => {
    const error = await rejection(loadConfig({ cwd: folder(), path: 'missing.json' }));
    expect(error.code).toBe(ErrorCode.CONFIG_UNREADABLE);
  });

  it('fails with CONFIG_INVALID for a file that breaks the schema', async () => {
    const error = await rejection(loadConfig({ cwd: folder({ 'tool-search.json': '{ tools: { alow: [] } }' }) }));
    expect(error.code).toBe(ErrorCode.CONFIG_INVALID);
    expect(error.path).toBe('/tools/alow');
  });
});

describe('parseConfig', () => {
  it('reports a JSON5 syntax error as CONFIG_UNREADABLE with its line', () => {
    let error: unknown;
    try {
      parseConfig('{\n  tools: {\n    allow: ["read",, ]\n  }\n}', 'bad.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe(ErrorCode.CONFIG_UNREADABLE);
    expect((error as ConfigError).details?.line).toBe(3);
  });

  it('accepts comments, trailing commas and unquoted keys', () => {
    expect(parseConfig('{ /* c */ tools: { deny: ["exec",], }, }').tools?.deny).toEqual(['exec']);
  });
});
