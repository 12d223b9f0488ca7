/**
 * The process → quickjs step for real, no mocked modules: the Node child cannot run here because the Node binary
 * refuses the permission-model flag (a stand-in `node` that prints Node's "bad option" and exits, as a build without
 * the permission model does). Code mode still runs, on QuickJS, and says so: the run's diagnostics (not only an
 * event) name the fallback and why. Runs in the isolated project (vitest.config.ts): the probe is cached per process.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KernelPlugin, RunEvent } from '@tool-search/kernel';
import { codeModePlugin, runCode } from '../src/index.js';
import { fakeSourcePlugin, makeRun, toolsModeStub } from './fixtures.js';

const realNode = process.execPath;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'mode-code-no-permission-'));
  const node = join(dir, 'node');
  writeFileSync(node, '#!/bin/sh\necho "$0: bad option: $1" >&2\nexit 9\n');
  chmodSync(node, 0o755);
  process.execPath = node; // what the sandbox spawns; restored after
});
afterAll(() => {
  process.execPath = realNode;
});

const FALLBACK = {
  code: 'SANDBOX_UNAVAILABLE',
  level: 'warning',
  plugin: '@tool-search/mode-code',
  message: expect.stringMatching(
    /^code mode fell back from the process sandbox to quickjs: process: .*bad option: --(experimental-)?permission/,
  ),
  details: expect.objectContaining({
    configured: 'process',
    used: 'quickjs',
    fallback: 'process → quickjs',
    reason: expect.stringMatching(/exited \(9\) before it was ready: .*bad option/),
  }),
};

it('a Node that refuses the permission flag: code runs on quickjs and the run says so, naming why', async () => {
  const events: RunEvent[] = [];
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((e) => void events.push(e)),
  };
  const { run, close } = await makeRun([fakeSourcePlugin(), toolsModeStub(), codeModePlugin(), observer]);
  const exposure = await run.exposure('code');
  const outcome = await exposure.call('tool_search_code', { code: 'return typeof process' });
  await close();
  expect(exposure.mode).toBe('code');
  expect(outcome).toMatchObject({ status: 'ok', result: { structuredContent: { ok: true, value: 'undefined' } } });
  expect(run.diagnostics).toContainEqual(expect.objectContaining({ ...FALLBACK, hook: 'materialize' }));
  expect(events).toContainEqual({ type: 'diagnostic', diagnostic: expect.objectContaining(FALLBACK) });
});

it('runCode without the plugin tells the run its observers the same', async () => {
  const events: RunEvent[] = [];
  const observer: KernelPlugin = {
    name: 'observer',
    apply: ({ hooks }) => hooks.runEvent.tap((e) => void events.push(e)),
  };
  const { run, close } = await makeRun([fakeSourcePlugin(), observer]);
  const result = await runCode(run, 'return 1 + 1');
  await close();
  expect(result).toMatchObject({ ok: true, value: 2 });
  expect(events).toContainEqual({
    type: 'diagnostic',
    diagnostic: expect.objectContaining({ ...FALLBACK, hook: 'runCode' }),
  });
});
