/**
 * Profiles as the Tools document describes them: `profiles`, `create-profile` (a CDP port auto-assigned in
 * 18800-18899, or a `cdpUrl`), `delete-profile`, `reset-profile`; names lowercase alphanumeric and hyphen, at most
 * 64; remote profiles attach-only; the `profile` parameter picks the browser an action runs on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import {
  CHROMIUM_PATH,
  browserProcesses,
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

const runnable = !chromiumMissing('the browser profile tests');
let server: TestServer;
let run: Run;
let stateDir: string;

beforeAll(async () => {
  if (!runnable) return;
  server = await serve({ '/store': html('<p>store</p>', 'Store') });
  stateDir = tempDir('profiles');
  run = await browserRun({ browser: { allowPrivate: true, profiles: { chrome: { cdpPort: 18857 } } }, stateDir });
});
afterAll(async () => {
  await run?.close();
  await server?.close();
});

type ProfileView = {
  profile: string;
  kind: string;
  cdpPort?: number;
  cdpUrl: string;
  running: boolean;
  default: boolean;
};
const profiles = async (target: Run = run) =>
  ok(await target.call('browser', { action: 'profiles' })).profiles as ProfileView[];

describe.skipIf(!runnable)('browser profiles', () => {
  it('profiles lists the default profile and the built-in openclaw one', async () => {
    expect(await profiles()).toEqual([
      expect.objectContaining({ profile: 'chrome', kind: 'local', cdpPort: 18857, default: true, running: false }),
      expect.objectContaining({ profile: 'openclaw', kind: 'local', cdpPort: 18800, default: false, running: false }),
    ]);
  });

  it('create-profile assigns a free CDP port in 18800-18899', async () => {
    const created = ok(await run.call('browser', { action: 'create-profile', name: 'work', color: '#FF5A36' }))
      .created as ProfileView;
    expect(created).toMatchObject({ profile: 'work', kind: 'local', cdpPort: 18801 });
    const second = ok(await run.call('browser', { action: 'create-profile', name: 'work-2' })).created as ProfileView;
    expect(second.cdpPort).toBe(18802);
    expect((await profiles()).map((entry) => entry.profile)).toEqual(['chrome', 'openclaw', 'work', 'work-2']);
  });

  it.each([['Work'], ['a_b'], ['-lead'], ['x'.repeat(65)], ['has space'], ['']])(
    'names must be lowercase alphanumeric and hyphen, at most 64: %j is refused',
    async (name) => {
      expect(errorCode(await run.call('browser', { action: 'create-profile', name }))).toBe('BROWSER_PROFILE_INVALID');
    },
  );

  it('a 64-character name is accepted; a taken name is BROWSER_PROFILE_EXISTS', async () => {
    ok(await run.call('browser', { action: 'create-profile', name: 'a'.repeat(64) }));
    expect(errorCode(await run.call('browser', { action: 'create-profile', name: 'work' }))).toBe(
      'BROWSER_PROFILE_EXISTS',
    );
    ok(await run.call('browser', { action: 'delete-profile', name: 'a'.repeat(64) }));
  });

  it('created profiles persist for the next process', async () => {
    const next = await browserRun({ browser: { profiles: { chrome: { cdpPort: 18857 } } }, stateDir });
    expect((await profiles(next)).map((entry) => entry.profile)).toEqual(['chrome', 'openclaw', 'work', 'work-2']);
    await next.close();
  });

  it("the profile parameter runs an action on that profile's own browser", async () => {
    ok(await run.call('browser', { action: 'start', profile: 'work' }));
    ok(await run.call('browser', { action: 'open', profile: 'work', targetUrl: `${server.origin}/store` }));
    expect(errorCode(await run.call('browser', { action: 'tabs' }))).toBe('BROWSER_NOT_RUNNING');
    const tabs = ok(await run.call('browser', { action: 'tabs', profile: 'work' })).tabs as { url: string }[];
    expect(tabs.map((tab) => tab.url)).toContain(`${server.origin}/store`);
    expect(errorCode(await run.call('browser', { action: 'tabs', profile: 'nobody' }))).toBe('BROWSER_PROFILE_UNKNOWN');
  }, 60_000);

  it('a remote profile (cdpUrl) attaches to a browser the user runs with a port, and is attach-only', async () => {
    // Managed profiles listen on no port (DevTools pipe); a port is the user's own opt-in, on a browser they run.
    const user = await startUserBrowser();
    try {
      ok(await run.call('browser', { action: 'create-profile', name: 'remote', cdpUrl: user.cdpUrl }));
      expect(ok(await run.call('browser', { action: 'start', profile: 'remote' }))).toMatchObject({
        kind: 'remote',
        running: true,
        attachOnly: true,
      });
      ok(await run.call('browser', { action: 'open', profile: 'remote', targetUrl: `${server.origin}/store` }));
      const tabs = ok(await run.call('browser', { action: 'tabs', profile: 'remote' })).tabs as { url: string }[];
      expect(tabs.map((tab) => tab.url)).toContain(`${server.origin}/store`);
      ok(await run.call('browser', { action: 'stop', profile: 'remote' }));
      // Stopping the attachment leaves the browser it attached to running.
      expect(user.child.exitCode).toBeNull();
      expect((await fetch(`${user.cdpUrl}/json/version`)).ok).toBe(true);
      expect(errorCode(await run.call('browser', { action: 'reset-profile', name: 'remote' }))).toBe(
        'BROWSER_PROFILE_PROTECTED',
      );
      ok(await run.call('browser', { action: 'delete-profile', name: 'remote' }));
      expect(user.child.exitCode).toBeNull();
    } finally {
      user.child.kill('SIGKILL');
    }
  }, 60_000);

  it("reset-profile wipes the profile's data (which stop/start keeps)", async () => {
    const setItem = {
      action: 'act',
      profile: 'work',
      request: { kind: 'evaluate', fn: '() => localStorage.setItem("k", "kept")' },
    };
    const getItem = {
      action: 'act',
      profile: 'work',
      request: { kind: 'evaluate', fn: '() => localStorage.getItem("k")' },
    };
    ok(await run.call('browser', setItem));
    ok(await run.call('browser', { action: 'stop', profile: 'work' }));
    ok(await run.call('browser', { action: 'start', profile: 'work' }));
    ok(await run.call('browser', { action: 'open', profile: 'work', targetUrl: `${server.origin}/store` }));
    expect(ok(await run.call('browser', getItem)).result).toBe('kept');
    expect(ok(await run.call('browser', { action: 'reset-profile', name: 'work' }))).toMatchObject({
      reset: 'work',
      wasRunning: true,
    });
    ok(await run.call('browser', { action: 'start', profile: 'work' }));
    ok(await run.call('browser', { action: 'open', profile: 'work', targetUrl: `${server.origin}/store` }));
    expect(ok(await run.call('browser', getItem)).result).toBeNull();
  }, 90_000);

  it('delete-profile stops the browser and removes its folder; the default profile cannot be deleted', async () => {
    const userData = join(stateDir, 'profiles', 'work', 'user-data');
    expect(processesWith(userData).length).toBeGreaterThan(0);
    ok(await run.call('browser', { action: 'delete-profile', name: 'work' }));
    expect(await eventually(() => processesWith(userData).length === 0)).toBe(true);
    expect(existsSync(userData)).toBe(false);
    expect((await profiles()).map((entry) => entry.profile)).toEqual(['chrome', 'openclaw', 'work-2']);
    expect(errorCode(await run.call('browser', { action: 'delete-profile', name: 'chrome' }))).toBe(
      'BROWSER_PROFILE_PROTECTED',
    );
  }, 60_000);

  it('concurrent clients: three starts at once launch one browser, and their opens each get a tab', async () => {
    const [a, b, c] = await Promise.all([
      run.call('browser', { action: 'start', profile: 'work-2' }),
      run.call('browser', { action: 'start', profile: 'work-2' }),
      run.call('browser', { action: 'start', profile: 'work-2' }),
    ]);
    for (const outcome of [a, b, c]) expect(ok(outcome!).running).toBe(true);
    expect(browserProcesses(join(stateDir, 'profiles', 'work-2', 'user-data'))).toHaveLength(1);
    const opened = await Promise.all(
      [1, 2, 3].map(() =>
        run.call('browser', { action: 'open', profile: 'work-2', targetUrl: `${server.origin}/store` }),
      ),
    );
    const ids = opened.map((outcome) => String(ok(outcome).targetId));
    expect(new Set(ids).size).toBe(3);
    const tabs = ok(await run.call('browser', { action: 'tabs', profile: 'work-2' })).tabs as { targetId: string }[];
    expect(tabs.map((tab) => tab.targetId)).toEqual(expect.arrayContaining(ids));
    ok(await run.call('browser', { action: 'stop', profile: 'work-2' }));
  }, 90_000);

  it('when all 100 ports are taken, create-profile is BROWSER_PORTS_EXHAUSTED', async () => {
    const crowded = await browserRun({
      browser: { profiles: { chrome: { cdpPort: 18800 } } },
      stateDir: tempDir('crowded'),
    });
    // chrome and the built-in openclaw take two ports: 98 more fill the range.
    for (let i = 1; i < 99; i++) ok(await crowded.call('browser', { action: 'create-profile', name: `p${i}` }));
    expect(errorCode(await crowded.call('browser', { action: 'create-profile', name: 'one-too-many' }))).toBe(
      'BROWSER_PORTS_EXHAUSTED',
    );
    const ports = (await profiles(crowded)).map((entry) => entry.cdpPort);
    expect(new Set(ports).size).toBe(100);
    expect(ports.every((port) => port! >= 18800 && port! <= 18899)).toBe(true);
    await crowded.close();
  });
});

/** A Chromium the user started themselves with a DevTools port (an ephemeral one, read back from the profile). */
async function startUserBrowser(): Promise<{ child: ChildProcess; cdpUrl: string }> {
  const userData = tempDir('user-browser');
  const child = spawn(
    CHROMIUM_PATH!,
    ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${userData}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const portFile = join(userData, 'DevToolsActivePort');
  const ready = await eventually(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'), 60_000);
  if (!ready) throw new Error('the user browser wrote no DevToolsActivePort');
  return { child, cdpUrl: `http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}` };
}
