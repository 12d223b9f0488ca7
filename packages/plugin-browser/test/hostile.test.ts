/**
 * Hostile pages must not freeze the process: a page that never finishes loading, an endless alert loop, a busy
 * script and a huge DOM each end in a bounded answer, and the tool keeps answering. Every browser process is gone
 * after `stop` and when the host process dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import {
  browserRun,
  errorCode,
  eventually,
  html,
  ok,
  processesWith,
  serve,
  tempDir,
  type TestServer,
  chromiumMissing,
} from './helpers.js';

const runnable = !chromiumMissing('the hostile-page tests');
let server: TestServer;
let run: Run;
let stateDir: string;
// The hosts the last tests kill start with the file: their start-up (Node, Chromium) overlaps the waits of the
// page tests instead of following them.
let hosts: Record<'SIGKILL' | 'SIGTERM', Host>;

beforeAll(async () => {
  if (!runnable) return;
  hosts = { SIGKILL: startHost('SIGKILL', 18855), SIGTERM: startHost('SIGTERM', 18856) };
  server = await serve({
    '/never-loads': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><head><title>Forever</title></head><body><p>still loading');
      // never ended: the server's close() destroys it
    },
    '/alerts': html(
      `<script>window.onload = () => setTimeout(() => { for (;;) alert('again'); }, 0);</script><p>alerts</p>`,
      'Alerts',
    ),
    '/busy': html(`<script>window.onload = () => setTimeout(() => { for (;;) {} }, 0);</script><p>busy</p>`, 'Busy'),
    '/huge': html(`<ul>${'<li><a href="#">item</a> <button>act</button></li>'.repeat(20_000)}</ul>`, 'Huge'),
  });
  stateDir = tempDir('hostile');
  run = await browserRun({
    browser: {
      allowPrivate: true,
      // These pages are about *that* an action times out, not the default: a short action bound keeps each wait short.
      actionTimeoutMs: 1_000,
      navigationTimeoutMs: 3_000,
      profiles: { chrome: { cdpPort: 18854 } },
    },
    stateDir,
  });
  ok(await run.call('browser', { action: 'start' }));
}, 60_000);
afterAll(async () => {
  for (const host of Object.values(hosts ?? {})) if (host.child.exitCode === null) host.child.kill('SIGKILL');
  await run?.close();
  await server?.close();
});

describe.skipIf(!runnable)('hostile pages do not freeze the process', () => {
  it('a page that never finishes loading: open answers loaded: false, the tab can be closed', async () => {
    const opened = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/never-loads` }));
    expect(opened.loaded).toBe(false);
    ok(await run.call('browser', { action: 'close', targetId: String(opened.targetId) }));
    expect(ok(await run.call('browser', { action: 'status' })).running).toBe(true);
  }, 60_000);

  it('an endless alert loop: dialogs are dismissed, then the page is left waiting on one; dialog answers it', async () => {
    const opened = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/alerts` }));
    // Reading the page times out instead of hanging, while the loop's first 50 alerts are dismissed and once the
    // page waits on the one left open (the timeout then says so). A loaded machine may need a few reads for that.
    const leftOpen = await eventually(async () => {
      const snapshot = await run.call('browser', { action: 'snapshot', targetId: String(opened.targetId) });
      expect(errorCode(snapshot)).toBe('BROWSER_TIMEOUT');
      return snapshot.status === 'error' && snapshot.error.message.includes('a dialog is open on this tab');
    });
    expect(leftOpen).toBe(true);
    expect(ok(await run.call('browser', { action: 'tabs' })).tabs).toHaveLength(2);
    const answered = ok(
      await run.call('browser', { action: 'dialog', accept: true, targetId: String(opened.targetId) }),
    );
    expect(answered.answered).toMatchObject({ type: 'alert', message: 'again' });
    ok(await run.call('browser', { action: 'close', targetId: String(opened.targetId) }));
  }, 60_000);

  it('a script that never yields: evaluate ends in BROWSER_TIMEOUT and the tab still closes', async () => {
    const opened = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/busy` }));
    expect(
      errorCode(
        await run.call('browser', {
          action: 'act',
          targetId: String(opened.targetId),
          request: { kind: 'evaluate', fn: 'document.title' },
        }),
      ),
    ).toBe('BROWSER_TIMEOUT');
    ok(await run.call('browser', { action: 'close', targetId: String(opened.targetId) }));
    expect(ok(await run.call('browser', { action: 'status' })).running).toBe(true);
  }, 60_000);

  it('a huge DOM: snapshot answers cut to maxChars (or a timeout), never a hang', async () => {
    const opened = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/huge` }));
    const snapshot = await run.call('browser', { action: 'snapshot', maxChars: 5_000 });
    if (snapshot.status === 'ok') {
      const result = snapshot.result.structuredContent as { truncated: boolean; snapshot: string };
      expect(result.truncated).toBe(true);
      expect(result.snapshot.length).toBeLessThan(5_200);
    } else expect(errorCode(snapshot)).toBe('BROWSER_TIMEOUT');
    ok(await run.call('browser', { action: 'close', targetId: String(opened.targetId) }));
  }, 60_000);

  it('stop ends every browser process', async () => {
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    expect(processesWith(userData).length).toBeGreaterThan(0);
    ok(await run.call('browser', { action: 'stop' }));
    expect(await eventually(() => processesWith(userData).length === 0)).toBe(true);
  }, 60_000);
});

describe.skipIf(!runnable)('every browser process is gone when the host process dies', () => {
  it.concurrent.each([['SIGKILL'], ['SIGTERM']] as const)(
    'host killed with %s',
    async (signal) => {
      const host = hosts[signal];
      const ready = await eventually(() => host.output.includes('READY') || host.child.exitCode !== null, 60_000);
      expect(ready && host.output.includes('READY'), host.output).toBe(true);
      const userData = /READY (\S+)/.exec(host.output)![1]!;
      expect(processesWith(userData).length).toBeGreaterThan(0);
      host.child.kill(signal);
      expect(await eventually(() => processesWith(userData).length === 0)).toBe(true);
    },
    90_000,
  );
});

interface Host {
  readonly child: ChildProcess;
  /** What the host printed so far: `READY <user-data folder>` once its browser is up. */
  output: string;
}

/** A host process with its own Chromium (its own state folder and CDP port), to be killed by a test. */
function startHost(signal: 'SIGKILL' | 'SIGTERM', cdpPort: number): Host {
  const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
  const child = spawn(
    process.execPath,
    [
      '--conditions=@tool-search/source',
      '--import',
      join(fixtures, 'register-ts.mjs'),
      join(fixtures, 'host.ts'),
      tempDir(`host-${signal}`),
      String(cdpPort),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const host: Host = { child, output: '' };
  child.stdout!.on('data', (chunk) => (host.output += chunk));
  child.stderr!.on('data', (chunk) => (host.output += chunk));
  return host;
}
