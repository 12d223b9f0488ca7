/**
 * Issue #40, item 1: the workspace agents write is a folder of its own. The old default was the config file's folder,
 * so `write` (or the sandboxed `exec`, which may write the workspace) could rewrite tool-search.json or drop a plugin
 * module beside it, and the next start ran it as the gateway's user. A configured workspace that contains the config
 * folder, a plugin module, the session logs, the cron folder or a state folder is refused at start.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type Kernel } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import { createToolSearchKernel } from '@tool-search/preset';

let kernel: Kernel | undefined;
const made: string[] = [];
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
  vi.unstubAllEnvs();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HERE = dirname(fileURLToPath(import.meta.url));
const UNPRIVILEGED = 65534;
const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
if (!CAN_DROP)
  console.warn(
    'skipping the unprivileged workspace attack: it needs root to drop to uid 65534 with setpriv (util-linux)',
  );

const CONFIG = '{ plugins: { core: {} }, tools: { exec: { security: "full", ask: "off" } } }\n';
const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'preset-ws-')));
const refused = { code: ErrorCode.CONFIG_INVALID, rule: 'workspaceContains' };

/** Runs the agent's attempts (fixtures/workspace-attack.ts) in a front-end process of its own, as `uid` if given. */
async function attack(dir: string, uid?: number): Promise<Record<string, any>> {
  const argv = [
    '--conditions=@tool-search/source',
    '--import',
    join(HERE, 'fixtures', 'register-ts.mjs'),
    join(HERE, 'fixtures', 'workspace-attack.ts'),
    dir,
  ];
  const [file, args] =
    uid === undefined
      ? [process.execPath, argv]
      : ['setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, ...argv]];
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(code, err).toBe(0);
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe.each([
  ['root (the gateway as root)', undefined],
  ['uid 65534', UNPRIVILEGED],
])('the default config, the agent as %s', (_, uid) => {
  it.skipIf(uid !== undefined && !CAN_DROP)(
    'cannot rewrite tool-search.json or drop a module beside it with write or exec',
    async () => {
      // Outside /tmp where there is /var/tmp: the sandbox has a private /tmp, so a write there would prove nothing.
      const dir = realpathSync(mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'preset-ws-')));
      made.push(dir);
      writeFileSync(join(dir, 'tool-search.json'), CONFIG);
      if (uid !== undefined) {
        chownSync(dir, uid, uid);
        chownSync(join(dir, 'tool-search.json'), uid, uid);
      }
      const result = await attack(dir, uid);
      expect(readFileSync(join(dir, 'tool-search.json'), 'utf8')).toBe(CONFIG);
      expect(existsSync(join(dir, 'evil.mjs'))).toBe(false);
      // A plain `write` of tool-search.json lands in the workspace, where nothing loads it.
      expect(result.write.status).toBe('ok');
      expect(existsSync(join(dir, 'workspace', 'tool-search.json'))).toBe(true);
      expect(result.writeUp).toMatchObject({ status: 'error', code: 'PATH_OUTSIDE_WORKSPACE' });
      expect(result.writeAbsolute).toMatchObject({ status: 'error', code: 'PATH_OUTSIDE_WORKSPACE' });
      if (result.exec === undefined) console.warn('skipping the exec attempt: bubblewrap cannot sandbox here');
      // It ran, and its writes outside the workspace hit the read-only root (the sandbox's private /tmp hides them).
      else {
        expect(result.exec.status).toBe('ok');
        if (!dir.startsWith('/tmp/')) expect(result.exec.result.exitCode).not.toBe(0);
      }
      // The default workspace was made on first use, owner-only: the front end's user's, or for a root front end the
      // sandbox's user's (uid 65534, who sandboxed commands run as there).
      const workspace = statSync(join(dir, 'workspace'));
      expect(workspace.mode & 0o777).toBe(0o700);
      expect(workspace.uid).toBe(uid ?? (process.getuid?.() === 0 ? UNPRIVILEGED : process.getuid?.()));
    },
    120_000,
  );
});

describe('a workspace the front end knows more about', () => {
  it('the config folder of a config built in code: refused, naming both', async () => {
    const dir = folder();
    const error = await createToolSearchKernel({ plugins: { core: { workspace: dir } } }, { baseDir: dir }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ ...refused, details: { workspace: dir, contains: dir, what: 'the config folder' } });
    expect((error as Error).message).toContain(dir);
  });

  it('the state folder (MCP tokens, cron without session logs): refused', async () => {
    const ws = folder();
    vi.stubEnv('TOOL_SEARCH_STATE_DIR', join(ws, 'state'));
    await expect(
      createToolSearchKernel({ plugins: { core: { workspace: ws } } }, { baseDir: folder() }),
    ).rejects.toMatchObject({ ...refused, details: { contains: join(ws, 'state') } });
  });

  it("the gateway's cron folder (jobs.json names the agent a job runs as): refused", async () => {
    const ws = folder();
    await expect(
      createToolSearchKernel(
        { plugins: { core: { workspace: ws } } },
        { baseDir: folder(), sessionHost: createSessionHost(), cronDir: join(ws, 'cron') },
      ),
    ).rejects.toMatchObject({ ...refused, details: { contains: join(ws, 'cron'), what: 'the cron folder' } });
  });

  it('a plugin module installed by package name inside it: refused before the module loads', async () => {
    const dir = folder();
    const pkg = join(dir, 'node_modules', 'ws-plugin');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{ "name": "ws-plugin", "type": "module", "main": "index.js" }');
    writeFileSync(join(pkg, 'index.js'), 'throw new Error("loaded");\n');
    await expect(
      createToolSearchKernel(
        { plugins: { core: { workspace: join(dir, 'node_modules') }, 'ws-plugin': {} } },
        { baseDir: dir },
      ),
    ).rejects.toMatchObject({ ...refused, details: { contains: join(pkg, 'index.js') } });
  });

  it('the default workspace of a config built in code is `workspace` in its folder, offered to MCP servers too', async () => {
    const dir = folder();
    ({ kernel } = await createToolSearchKernel({ plugins: { core: {} } }, { baseDir: dir }));
    const run = await kernel.createRun();
    await run.call('write', { path: 'note.txt', content: 'x' });
    expect(readFileSync(join(dir, 'workspace', 'note.txt'), 'utf8')).toBe('x');
  });
});
