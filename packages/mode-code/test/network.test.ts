/** Issue #26: the Node child has no network by construction where this machine can give it a namespace of its own. */
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launcher, readNetNamespace } from '../src/sandbox/launcher.js';
import { spawnSandbox } from '../src/sandbox/process.js';
import { runCode } from '../src/index.js';
import { fakeSourcePlugin, makeRun } from './fixtures.js';

const isolated = process.platform === 'linux' && launcher().network === 'none';
if (!isolated)
  console.log(
    'skipping the network namespace tests: util-linux unshare cannot make a network namespace here (the child shares the network: README, "Not covered")',
  );

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined).end('HELLO\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const connectScript = (target: number) =>
  `require('net').connect(${target}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('NO NETWORK', e.code); process.exit(0) })`;

describe.skipIf(!isolated)("the process backend's network", () => {
  it("a ready child is in a network namespace other than this process's", async () => {
    const child = spawnSandbox({ memoryMb: 32, maxLineBytes: 4096 });
    try {
      await child.ready;
      const own = readNetNamespace('self');
      const its = readNetNamespace(child.pid!);
      expect(its).toMatch(/^net:\[\d+\]$/);
      expect(its).not.toBe(own);
    } finally {
      await child.kill();
    }
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a raw connect from the child's network namespace cannot reach a loopback server here (nsenter: the OS-level escape)",
    async () => {
      const child = spawnSandbox({ memoryMb: 32, maxLineBytes: 4096 });
      try {
        await child.ready;
        const before = connections;
        const inside = spawnSync(
          'nsenter',
          [`--net=/proc/${child.pid}/ns/net`, '--', process.execPath, '-e', connectScript(port)],
          { encoding: 'utf8', timeout: 60_000 },
        );
        expect(inside.stdout).toContain('NO NETWORK');
        expect(connections).toBe(before);
        // The same probe from this namespace connects, so the one above can fail.
        const outside = spawnSync(process.execPath, ['-e', connectScript(port)], { encoding: 'utf8', timeout: 60_000 });
        expect(outside.stdout).toContain('CONNECTED');
      } finally {
        await child.kill();
      }
    },
  );

  it('every child a code run starts gets its own namespace (runCode, the tool path)', async () => {
    const { run, close } = await makeRun([fakeSourcePlugin()]);
    const namespaces: (string | undefined)[] = [];
    try {
      const result = await runCode(run, `await openclaw.tools.search('weather'); return 1;`, {
        codeTimeoutMs: 30_000,
        // Read once the child runs node (the launchers before it exec in place, keeping the pid).
        onSpawn: (pid) => void waitForNode(pid).then(() => namespaces.push(readNetNamespace(pid))),
      });
      expect(result).toMatchObject({ ok: true, value: 1 });
      const deadline = Date.now() + 30_000;
      while (!namespaces.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(namespaces[0]).toBeDefined();
      expect(namespaces[0]).not.toBe(readNetNamespace('self'));
    } finally {
      await close();
    }
  });
});

/** Resolves once /proc/<pid>/exe is node (or the process is gone). */
async function waitForNode(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if (readlinkSync(`/proc/${pid}/exe`) === process.execPath) return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
