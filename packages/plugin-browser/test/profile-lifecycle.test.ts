/**
 * Profiles and targets as the Tools document has them, run as a user would, on a real Chromium: the default profile
 * is `chrome` (`openclaw` is still there); a refused `delete-profile` leaves the protected profile's browser running;
 * `reset-profile` stops a Chromium left on the profile's port (and never a process that only looks like it); `target`
 * takes sandbox/host/node and `node` a node, with what cannot work here refused by BROWSER_TARGET_UNAVAILABLE.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BROWSER_UID } from '../src/launcher.js';
import {
  CHROMIUM_PATH,
  browserProcesses,
  browserRun,
  chromiumMissing,
  errorCode,
  eventually,
  html,
  ok,
  serve,
  tempDir,
  type TestServer,
} from './helpers.js';

const runnable = !chromiumMissing('the profile lifecycle and target tests');
const AS_ROOT = process.getuid?.() === 0;
/** Root with setpriv: a decoy can run as Chromium's own uid. */
const CAN_DROP = AS_ROOT && spawnSync('setpriv', ['--version']).status === 0;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
let server: TestServer | undefined;
afterAll(async () => {
  await server?.close();
});

const userDataOf = (stateDir: string, profile: string) => join(stateDir, 'profiles', profile, 'user-data');

describe.skipIf(!runnable)('the default profile name', () => {
  it('is "chrome" (the Tools document\'s default); "openclaw" is there too, and defaultProfile picks another', async () => {
    const stateDir = tempDir('default-name');
    const run = await browserRun({ stateDir });
    const status = ok(await run.call('browser', { action: 'status' }));
    expect(status).toMatchObject({ profile: 'chrome', default: true, origin: 'default', kind: 'local' });
    const listed = ok(await run.call('browser', { action: 'profiles' })).profiles as Record<string, unknown>[];
    expect(listed.map((entry) => [entry.profile, entry.origin])).toEqual([
      ['chrome', 'default'],
      ['openclaw', 'builtin'],
    ]);
    // Without profile, start runs the chrome profile's own Chromium on its own folder.
    ok(await run.call('browser', { action: 'start' }));
    expect(browserProcesses(userDataOf(stateDir, 'chrome'))).toHaveLength(1);
    expect(browserProcesses(userDataOf(stateDir, 'openclaw'))).toHaveLength(0);
    expect(errorCode(await run.call('browser', { action: 'delete-profile', name: 'openclaw' }))).toBe(
      'BROWSER_PROFILE_PROTECTED',
    );
    await run.close();

    const chosen = await browserRun({ stateDir: tempDir('default-chosen'), browser: { defaultProfile: 'openclaw' } });
    expect(ok(await chosen.call('browser', { action: 'status' }))).toMatchObject({
      profile: 'openclaw',
      default: true,
    });
    const only = ok(await chosen.call('browser', { action: 'profiles' })).profiles as Record<string, unknown>[];
    expect(only.map((entry) => entry.profile)).toEqual(['openclaw']);
    await chosen.close();
  }, 90_000);
});

describe.skipIf(!runnable)('profile ports', () => {
  it('an assigned port never takes one the config or an earlier created profile names (upgrading keeps them apart)', async () => {
    const stateDir = tempDir('ports');
    // Created by an earlier version, whose default profile took 18800 and left 18801 to the first created one.
    writeFileSync(join(stateDir, 'profiles.json'), JSON.stringify({ profiles: { work: { cdpPort: 18801 } } }));
    const run = await browserRun({ stateDir, browser: { profiles: { late: {}, fixed: { cdpPort: 18800 } } } });
    const listed = ok(await run.call('browser', { action: 'profiles' })).profiles as Record<string, unknown>[];
    expect(Object.fromEntries(listed.map((entry) => [entry.profile, entry.cdpPort]))).toEqual({
      chrome: 18802,
      openclaw: 18803,
      late: 18804,
      fixed: 18800,
      work: 18801,
    });
    await run.close();
  });
});

describe.skipIf(!runnable)('a refused delete-profile leaves the browser running', () => {
  it.each([
    ['the default profile', 'chrome'],
    ['the built-in openclaw profile', 'openclaw'],
    ['a profile from the config', 'work'],
  ])(
    '%s: BROWSER_PROFILE_PROTECTED, and its tab and process are still there',
    async (_what, profile) => {
      server ??= await serve({ '/page': html('<p>kept</p>', 'Kept') });
      const stateDir = tempDir('protected');
      const run = await browserRun({
        stateDir,
        browser: { allowPrivate: true, profiles: { work: { color: '#00AA00' } } },
      });
      ok(await run.call('browser', { action: 'start', profile }));
      ok(await run.call('browser', { action: 'open', profile, targetUrl: `${server.origin}/page` }));
      const [pid] = browserProcesses(userDataOf(stateDir, profile));
      expect(pid).toBeDefined();

      expect(errorCode(await run.call('browser', { action: 'delete-profile', name: profile }))).toBe(
        'BROWSER_PROFILE_PROTECTED',
      );
      expect(ok(await run.call('browser', { action: 'status', profile }))).toMatchObject({ running: true });
      const tabs = ok(await run.call('browser', { action: 'tabs', profile })).tabs as { url: string }[];
      expect(tabs.map((tab) => tab.url)).toContain(`${server.origin}/page`);
      expect(browserProcesses(userDataOf(stateDir, profile))).toEqual([pid]);
      await run.close();
    },
    90_000,
  );
});

describe.skipIf(!runnable)("reset-profile and a Chromium left on the profile's folder", () => {
  it("start names a Chromium left running on the profile's port; stop stops it, and start works again", async () => {
    const stateDir = tempDir('leftover-stop');
    const run = await browserRun({ stateDir, browser: { profiles: { chrome: { cdpPort: 18872 } } } });
    // A first start lays the profile out as the tool runs it (as root: folders handed to Chromium's uid, launcher).
    ok(await run.call('browser', { action: 'start' }));
    ok(await run.call('browser', { action: 'stop' }));
    const userData = userDataOf(stateDir, 'chrome');
    const leftover = await chromiumOn(stateDir, 'chrome', 18872);
    const [pid] = browserProcesses(userData);
    expect(lockPid(userData)).toBe(pid);
    // It holds the profile: start says so, and how to get it back, instead of launching a Chromium that aborts.
    const held = await run.call('browser', { action: 'start' });
    expect(errorCode(held)).toBe('BROWSER_START_FAILED');
    expect(held.status === 'error' && held.error.message).toMatch(/pid \d+.*"stop"/);

    const exited = once(leftover, 'exit');
    const stopped = ok(await run.call('browser', { action: 'stop' }));
    expect(stopped).toMatchObject({ stopped: true, stoppedLeftover: expect.arrayContaining([pid]) });
    await exited;
    expect(browserProcesses(userData)).toEqual([]);
    expect(existsSync(join(userData, 'Default'))).toBe(true); // stop keeps the profile's data
    expect(ok(await run.call('browser', { action: 'start' }))).toMatchObject({ profile: 'chrome', running: true });
    await run.close();
  }, 120_000);

  it("reset-profile stops a Chromium left running on the profile's port, then wipes the profile", async () => {
    const stateDir = tempDir('leftover');
    const run = await browserRun({ stateDir, browser: { profiles: { chrome: { cdpPort: 18871 } } } });
    ok(await run.call('browser', { action: 'start' }));
    ok(await run.call('browser', { action: 'stop' }));
    const userData = userDataOf(stateDir, 'chrome');
    const leftover = await chromiumOn(stateDir, 'chrome', 18871);
    const [pid] = browserProcesses(userData);
    expect(lockPid(userData)).toBe(pid);

    const exited = once(leftover, 'exit');
    const reset = ok(await run.call('browser', { action: 'reset-profile', name: 'chrome' }));
    expect(reset).toMatchObject({ reset: 'chrome', wasRunning: false, stoppedLeftover: expect.arrayContaining([pid]) });
    await exited;
    expect(browserProcesses(userData)).toEqual([]);
    await expect(fetch('http://127.0.0.1:18871/json/version')).rejects.toThrow();
    expect(existsSync(userData)).toBe(false);
    expect(ok(await run.call('browser', { action: 'start' }))).toMatchObject({ profile: 'chrome', running: true });
    await run.close();
  }, 120_000);

  it("stops no process that is not the profile's Chromium, though the lock names it", async () => {
    const stateDir = tempDir('not-leftover');
    const run = await browserRun({ stateDir });
    ok(await run.call('browser', { action: 'start' }));
    ok(await run.call('browser', { action: 'stop' }));
    // A real Chromium of the same tool and user, on another profile: all it lacks is this profile's folder.
    ok(await run.call('browser', { action: 'start', profile: 'openclaw' }));
    const other = userDataOf(stateDir, 'openclaw');
    const [otherPid] = browserProcesses(other);
    const userData = userDataOf(stateDir, 'chrome');
    const decoys = [
      // Processes that name this profile's folder on their command line: this process's user, and (root) Chromium's.
      decoy(`--user-data-dir=${userData}`),
      ...(CAN_DROP ? [decoy(`--user-data-dir=${userData}`, BROWSER_UID)] : []),
    ];
    await Promise.all(decoys.map((child) => once(child, 'spawn')));
    // The lock is the browser user's to write: point it (and the socket) at each process in turn.
    const socket = readlinkSync(join(other, 'SingletonSocket'));
    for (const target of [...decoys.map((child) => child.pid!), otherPid!, process.pid, 1]) {
      plantLock(userData, target, socket);
      const reset = ok(await run.call('browser', { action: 'reset-profile', name: 'chrome' }));
      expect(reset.stoppedLeftover).toBeUndefined();
    }
    for (const child of decoys) expect(running(child.pid!)).toBe(true);
    expect(browserProcesses(other)).toEqual([otherPid]);
    expect(ok(await run.call('browser', { action: 'status', profile: 'openclaw' }))).toMatchObject({ running: true });
    await run.close();
  }, 120_000);
});

describe.skipIf(!runnable)('target and node', () => {
  it('host (or no target) runs here; sandbox and node are BROWSER_TARGET_UNAVAILABLE saying why, and start nothing', async () => {
    const stateDir = tempDir('target');
    const run = await browserRun({ stateDir });
    const schema = run.tool('browser')?.inputSchema as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties.target?.enum).toEqual(['sandbox', 'host', 'node']);
    expect(schema.properties.node).toMatchObject({ type: 'string' });

    for (const args of [
      { action: 'start', target: 'sandbox' },
      { action: 'start', target: 'node' },
      { action: 'start', target: 'node', node: 'office-mac' },
      { action: 'start', node: 'office-mac' },
      { action: 'tabs', target: 'sandbox' },
    ]) {
      const outcome = await run.call('browser', args);
      expect(errorCode(outcome)).toBe('BROWSER_TARGET_UNAVAILABLE');
      // The message says why: what this host lacks.
      const message = outcome.status === 'error' ? outcome.error.message : '';
      expect(message).toMatch(args.target === 'sandbox' ? /no sandbox browser/ : /no paired node/);
      if (args.node) expect(message).toContain(args.node);
    }
    expect(browserProcesses(userDataOf(stateDir, 'chrome'))).toEqual([]);
    expect(errorCode(await run.call('browser', { action: 'status', target: 'host', node: 'office-mac' }))).toBe(
      'BROWSER_ARGUMENTS_INVALID',
    );
    await expect(run.call('browser', { action: 'status', target: 'moon' })).rejects.toThrow(/target/);

    expect(ok(await run.call('browser', { action: 'start', target: 'host' }))).toMatchObject({ running: true });
    expect(ok(await run.call('browser', { action: 'tabs' })).profile).toBe('chrome');
    await run.close();
  }, 90_000);
});

/**
 * Chromium started on the profile's folder with the profile's port, as the profile's browser would run it (as root:
 * through the tool's own launcher, so as Chromium's uid, confined), and left running: it waits until the port answers.
 */
async function chromiumOn(stateDir: string, profile: string, port: number): Promise<ChildProcess> {
  const userData = userDataOf(stateDir, profile);
  const launcher = join(stateDir, 'launchers', `${profile}.sh`);
  const program = AS_ROOT && existsSync(launcher) ? launcher : CHROMIUM_PATH!;
  const child = spawn(
    program,
    ['--headless', '--no-sandbox', `--user-data-dir=${userData}`, `--remote-debugging-port=${port}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  children.push(child);
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false, // not listening yet
    );
  if (!(await eventually(answers, 60_000))) throw new Error(`the left-over Chromium did not open port ${port}`);
  return child;
}

/** A process that is not Chromium but names `arg` on its command line, as this user or as `uid` (root only). */
function decoy(arg: string, uid?: number): ChildProcess {
  const node = [process.execPath, '-e', 'setInterval(() => {}, 1000)', '--', arg];
  const command = uid === undefined ? node : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...node];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  children.push(child);
  return child;
}

function plantLock(userData: string, pid: number, socket: string): void {
  mkdirSync(userData, { recursive: true });
  for (const name of ['SingletonLock', 'SingletonSocket'])
    if (existsSync(join(userData, name)) || isLink(join(userData, name))) unlinkSync(join(userData, name));
  symlinkSync(`${hostname()}-${pid}`, join(userData, 'SingletonLock'));
  symlinkSync(socket, join(userData, 'SingletonSocket'));
}

function isLink(path: string): boolean {
  try {
    readlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

function lockPid(userData: string): number | undefined {
  const match = /-(\d+)$/.exec(readlinkSync(join(userData, 'SingletonLock')));
  return match ? Number(match[1]) : undefined;
}

function running(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
