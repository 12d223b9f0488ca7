import { chownSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type Kernel } from '@tool-search/kernel';
import type { Approver } from '@tool-search/plugin-approvals';
import { probeBubblewrap } from '@tool-search/plugin-exec';
import { createToolSearchKernel } from '@tool-search/preset';
import { noteSkipped, systemProgramOnPath } from '@tool-search/testing';

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

// exec and process are listed where bubblewrap runs, browser where Chromium is on PATH; elsewhere each is absent
// (a diagnostic says why) and the tests that call them skip.
const SANDBOX = probeBubblewrap('bwrap').ok;
const CHROMIUM = systemProgramOnPath('chromium');
if (!SANDBOX) noteSkipped('the exec calls of the preset core-tools tests', 'bubblewrap', 'bwrap does not run here');
const itSandboxed = SANDBOX ? it : it.skip;
const runtimeTools = SANDBOX ? ['exec', 'process'] : [];

/** A workspace the sandbox can use: a root gateway runs commands as uid 65534 (the preset's default one is its). */
const workspace = () => sandboxUsable(realpathSync(mkdtempSync(join(tmpdir(), 'preset-core-'))));
function sandboxUsable(ws: string): string {
  if (process.getuid?.() === 0) chownSync(ws, 65534, 65534);
  return ws;
}

describe('plugins.core', () => {
  it('turns on the real core tools in the workspace', async () => {
    const ws = workspace();
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: ws } },
      tools: { exec: { security: 'full', ask: 'off' } },
    }));
    const run = await kernel.createRun();
    const expected = ['edit', 'memory_get', 'memory_search', 'pdf', 'read', 'web_fetch', 'write', ...runtimeTools];
    if (CHROMIUM) expected.push('browser');
    expect(run.catalog.map((t) => t.id).sort()).toEqual(expected.map((name) => `core:core:${name}`).sort());
    expect(run.catalog.every((t) => t.source === 'core')).toBe(true);
    expect(run.tool('apply_patch')).toBeUndefined();
    await run.call('write', { path: 'hello.txt', content: 'real\n' });
    expect(readFileSync(join(ws, 'hello.txt'), 'utf8')).toBe('real\n');
    if (!SANDBOX) {
      // Not listed, and a diagnostic says why (the fresh-machine run takes this branch).
      expect(run.diagnostics.map((d) => d.code)).toContain('EXEC_HOST_UNAVAILABLE');
      return;
    }
    expect(await run.call('exec', { command: 'cat hello.txt' })).toMatchObject({
      status: 'ok',
      result: { structuredContent: { output: 'real\n', exitCode: 0 } },
    });
  });

  itSandboxed(
    'the default workspace: write, then exec sed -i, then read sees the change (as root: the sandbox is uid 65534)',
    async () => {
      // A config folder only its owner may enter, as ~/.openclaw or /root is: the default workspace is made inside it.
      const base = realpathSync(
        mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'preset-default-ws-')),
      );
      ({ kernel } = await createToolSearchKernel(
        { plugins: { core: {} }, tools: { exec: { security: 'full', ask: 'off' } } },
        { baseDir: base },
      ));
      const run = await kernel.createRun();
      expect((await run.call('write', { path: 'notes/a.txt', content: 'old text\n' })).status).toBe('ok');
      expect(
        await run.call('exec', { command: "sed -i 's/old/new/' notes/a.txt && stat -c %u notes/a.txt" }),
      ).toMatchObject({
        status: 'ok',
        result: {
          structuredContent: { exitCode: 0, output: `${process.getuid?.() === 0 ? 65534 : process.getuid?.()}\n` },
        },
      });
      const read = await run.call('read', { path: 'notes/a.txt' });
      expect(read.status === 'ok' && JSON.stringify(read.result.content)).toContain('new text');
    },
  );

  it('lists apply_patch with tools.exec.applyPatch.enabled', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      tools: { exec: { applyPatch: { enabled: true } } },
    }));
    expect((await kernel.createRun()).tool('apply_patch')?.id).toBe('core:core:apply_patch');
  });

  it('the coding profile keeps group:fs, group:runtime and group:memory', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      tools: { profile: 'coding' },
    }));
    expect((await kernel.createRun()).catalog.map((t) => t.name).sort()).toEqual(
      ['edit', 'memory_get', 'memory_search', 'read', 'write', ...runtimeTools].sort(),
    );
  });

  it("together with the fake catalog's core tools is a config error", async () => {
    for (const fake of [{}, { core: true }, { tools: 5 }]) {
      await expect(
        createToolSearchKernel({ plugins: { core: { workspace: workspace() }, 'fake-catalog': fake } }),
      ).rejects.toMatchObject({
        code: ErrorCode.CONFIG_INVALID,
        path: '/plugins/core',
        rule: 'coreConflict',
      });
    }
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() }, 'fake-catalog': { tools: 3, core: false } },
    }));
    const catalog = (await kernel.createRun()).catalog;
    expect(catalog).toHaveLength(7 + runtimeTools.length + (CHROMIUM ? 1 : 0) + 3);
    expect(catalog.filter((t) => t.source === 'plugin')).toHaveLength(3);
    expect(catalog.filter((t) => t.id === 'core:core:read')).toHaveLength(1);
  });

  itSandboxed("exec asks the preset's approver on an allowlist miss: allow runs it, deny blocks it", async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'victim.txt'), 'x');
    const config = { plugins: { core: { workspace: ws } }, tools: { exec: { allowlist: ['echo'] } } };
    const deny = vi.fn<Approver>(async () => 'deny');
    ({ kernel } = await createToolSearchKernel(config, { approve: deny }));
    let run = await kernel.createRun();
    expect((await run.call('exec', { command: 'echo hi' })).status).toBe('ok');
    expect(deny).not.toHaveBeenCalled();
    expect(await run.call('exec', { command: 'rm victim.txt' })).toMatchObject({ status: 'blocked' });
    expect(deny.mock.calls[0]?.[0].reason).toContain('"rm" is not on tools.exec.allowlist');
    expect(existsSync(join(ws, 'victim.txt'))).toBe(true);
    await kernel.close();

    ({ kernel } = await createToolSearchKernel(config, { approve: async () => 'allow' }));
    run = await kernel.createRun();
    expect((await run.call('exec', { command: 'rm victim.txt' })).status).toBe('ok');
    expect(existsSync(join(ws, 'victim.txt'))).toBe(false);
  });

  itSandboxed('without an approver, an exec that needs approval is denied (fail closed)', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      tools: { exec: { ask: 'always', security: 'full' } },
    }));
    expect(await (await kernel.createRun()).call('exec', { command: 'echo hi' })).toMatchObject({ status: 'blocked' });
  });

  it('a missing workspace folder is OPTIONS_INVALID', async () => {
    await expect(createToolSearchKernel({ plugins: { core: { workspace: '/no/such/folder' } } })).rejects.toMatchObject(
      { code: ErrorCode.OPTIONS_INVALID },
    );
  });
});
