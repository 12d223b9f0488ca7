import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { configIssues, loadConfig } from '../src/index.js';

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-core-'));
  writeFileSync(join(dir, 'tool-search.json'), text);
  return dir;
}

describe('plugins.core', () => {
  it("resolves workspace against the config file's folder", async () => {
    const dir = configFile('{ plugins: { core: { workspace: "project" } } }');
    expect((await loadConfig({ cwd: dir })).config.plugins?.core).toEqual({ workspace: join(dir, 'project') });
  });

  it("defaults workspace to the folder `workspace` in the config file's folder (never the folder itself)", async () => {
    const dir = configFile('{ plugins: { core: {} } }');
    expect((await loadConfig({ cwd: dir })).config.plugins?.core).toEqual({ workspace: join(dir, 'workspace') });
  });

  it('rejects unknown keys', () => {
    expect(configIssues({ plugins: { core: { worksapce: 'x' } } })).toEqual([
      expect.objectContaining({ path: '/plugins/core/worksapce', rule: 'additionalProperties' }),
    ]);
  });
});

describe('tools.exec and tools.elevated', () => {
  it('checks the keys the exec tools act on, with the path', () => {
    expect(configIssues({ tools: { exec: { security: 'everything' } } })).toEqual([
      expect.objectContaining({ path: '/tools/exec/security', rule: 'enum' }),
    ]);
    expect(configIssues({ tools: { exec: { timeoutSec: 0 } } })[0]?.path).toBe('/tools/exec/timeoutSec');
    expect(configIssues({ tools: { exec: { applyPatch: { enabled: 'yes' } } } })[0]?.path).toBe(
      '/tools/exec/applyPatch/enabled',
    );
    expect(configIssues({ tools: { elevated: { enabled: 1 } } })[0]?.path).toBe('/tools/elevated/enabled');
    expect(configIssues({ agents: { list: [{ id: 'a', tools: { elevated: { enabled: 'no' } } }] } })[0]?.path).toBe(
      '/agents/list/0/tools/elevated/enabled',
    );
  });

  it("accepts OpenClaw's other exec keys as they are", () => {
    expect(
      configIssues({
        tools: {
          exec: {
            host: 'gateway',
            backgroundMs: 10000,
            notifyOnExit: true,
            applyPatch: { enabled: true, allowModels: ['gpt-5'] },
          },
          elevated: { enabled: true, allowFrom: {} },
        },
      }),
    ).toEqual([]);
  });

  it('a bad value is CONFIG_INVALID when loaded', async () => {
    const dir = configFile('{ tools: { exec: { ask: "never" } } }');
    await expect(loadConfig({ cwd: dir })).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/tools/exec/ask',
    });
  });
});
