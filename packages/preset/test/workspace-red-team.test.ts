/**
 * The workspace rule against cases its first tests did not list: a workspace that holds Tool Search's own code (the
 * `node_modules` its modules load from, or its package folders: an agent that writes there runs as the gateway at its
 * next start), one that holds the embeddings cache folder (the gateway appends to `<cacheDir>/<hash>.jsonl`, a name
 * an agent can predict and plant as a link), and spellings of the config folder (`..`, links, trailing slashes).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, type Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';

let kernel: Kernel | undefined;
const made: string[] = [];
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const folder = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'preset-ws-rt-')));
  made.push(dir);
  return dir;
};
const refused = { code: ErrorCode.CONFIG_INVALID, rule: 'workspaceContains' };
const start = (workspace: string, baseDir: string, extra: Record<string, unknown> = {}) =>
  createToolSearchKernel({ plugins: { core: { workspace } }, ...extra } as never, { baseDir });

describe("Tool Search's own code is never inside the workspace", () => {
  const require = createRequire(import.meta.url);
  /** The `node_modules` folder the preset's dependencies load from, and the preset's own package folder. */
  const nodeModules = dirname(dirname(realpathSync(require.resolve('json5/package.json'))));
  const presetFolder = dirname(dirname(fileURLToPath(import.meta.url)));

  it('a workspace that is (or holds) the node_modules folder the gateway loads from: refused', async () => {
    for (const workspace of [nodeModules, dirname(nodeModules)]) {
      await expect(start(workspace, folder()), workspace).rejects.toMatchObject(refused);
    }
  });

  it("a workspace that holds, or lies inside, Tool Search's packages or a dependency: refused", async () => {
    for (const workspace of [
      dirname(presetFolder),
      presetFolder,
      join(presetFolder, 'src'),
      join(nodeModules, 'json5'),
    ])
      await expect(start(workspace, folder()), workspace).rejects.toMatchObject(refused);
  });

  it("Node's binary is never inside the workspace", async () => {
    await expect(start(dirname(process.execPath), folder())).rejects.toMatchObject({
      ...refused,
      details: { contains: process.execPath },
    });
  });
});

describe('the embeddings cache folder is never inside the workspace', () => {
  it('tools.toolSearch.embeddings.cacheDir inside the workspace: refused, naming it', async () => {
    const ws = folder();
    const embeddings = { baseURL: 'http://127.0.0.1:9/v1', model: 'e', apiKey: 'k', cacheDir: join(ws, 'cache') };
    await expect(start(ws, folder(), { tools: { toolSearch: { embeddings } } })).rejects.toMatchObject({
      ...refused,
      details: { contains: join(ws, 'cache') },
    });
  });
});

describe('spellings of the config folder', () => {
  it('`..`, a trailing slash, `.` segments and a link to it are all the config folder: refused', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'sub'));
    symlinkSync(dir, join(folder(), 'link'));
    const link = join(made.at(-1)!, 'link');
    for (const workspace of [`${dir}/sub/..`, `${dir}/`, `${dir}/./`, './sub/..', '.', link, `${link}/`]) {
      await expect(start(workspace, dir), workspace).rejects.toMatchObject(refused);
    }
  });

  it('a relative workspace is used where it was checked: in the config folder, not the working folder', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'elsewhere'));
    ({ kernel } = await start('./elsewhere', dir));
    const run = await kernel.createRun();
    expect((await run.call('write', { path: 'note.txt', content: 'x' })).status).toBe('ok');
    await run.close();
    expect(readFileSync(join(dir, 'elsewhere', 'note.txt'), 'utf8')).toBe('x');
  });
});

describe.each([
  ['root', undefined],
  ['uid 65534', 65534],
])('the sandboxed exec cannot read the config beside the workspace (the gateway as %s)', (_, uid) => {
  const HERE = dirname(fileURLToPath(import.meta.url));
  const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  if (uid !== undefined && !CAN_DROP)
    console.warn('skipping the unprivileged exec read: it needs root to drop to uid 65534 with setpriv (util-linux)');

  it.skipIf(uid !== undefined && !CAN_DROP)(
    'cat ../tool-search.json (a readable file holding the provider key) shows nothing; the workspace still works',
    async () => {
      // Outside /tmp where there is /var/tmp: the sandbox has a private /tmp, so a read there would prove nothing.
      const dir = realpathSync(mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'preset-ws-read-')));
      made.push(dir);
      const config =
        '{ plugins: { core: {} }, tools: { exec: { security: "full", ask: "off" } }, provider: { baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: "sk-config-secret" }, session: { logDir: "./sessions" } }\n';
      writeFileSync(join(dir, 'tool-search.json'), config);
      mkdirSync(join(dir, 'sessions'));
      writeFileSync(join(dir, 'sessions', 'other.jsonl'), '{"transcript":"other-agent-secret"}\n');
      // As an operator's editor leaves them: readable by every user, the sandbox's `nobody` too.
      chmodSync(dir, 0o755);
      chmodSync(join(dir, 'tool-search.json'), 0o644);
      chmodSync(join(dir, 'sessions'), 0o755);
      chmodSync(join(dir, 'sessions', 'other.jsonl'), 0o644);
      if (uid !== undefined) for (const path of [dir, join(dir, 'sessions')]) chownSync(path, uid, uid);
      const argv = [
        '--conditions=@tool-search/source',
        '--import',
        join(HERE, 'fixtures', 'register-ts.mjs'),
        join(HERE, 'fixtures', 'exec-read-attack.ts'),
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
      const { exec } = JSON.parse(out.trim().split('\n').pop()!);
      if (exec === null) {
        console.warn('skipping the exec read: bubblewrap cannot sandbox here (apt-get install -y bubblewrap)');
        return;
      }
      expect(exec.status, JSON.stringify(exec)).toBe('ok');
      expect(exec.output).not.toContain('sk-config-secret');
      expect(exec.output).not.toContain('other-agent-secret');
      expect(exec.output).toContain('ok');
      expect(readFileSync(join(dir, 'workspace', 'mine.txt'), 'utf8')).toBe('ok\n');
    },
    120_000,
  );
});
