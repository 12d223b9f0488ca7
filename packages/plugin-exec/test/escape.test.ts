// Red team for the bubblewrap sandbox (issue #26): capabilities, remounts, host sockets. Each attack is a test that
// fails if it works; where a probe could be broken instead of blocked, the same probe runs on the gateway host and
// must succeed there. These run as whoever runs the tests (root here and in CI); `as an unprivileged user` repeats
// the identity checks with bwrap started by uid 65534.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EXEC_LIMIT_DEFAULTS, sandboxArgs, sandboxFilter } from '@tool-search/plugin-exec';
import { innerLauncher } from '../src/limits.js';
import { closeAll, execEnv, OPEN, SANDBOX_RUNS, structured } from './fixtures.js';

afterEach(closeAll);

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE = dirname(HERE);
const HOST_SOCKET = join(HERE, 'fixtures', 'host-socket.py');

/** The probe copied into the workspace: the sandbox sees its own /tmp, and a checkout may live under the host's. */
function probeIn(ws: string): string {
  const copy = join(ws, 'host-socket.py');
  copyFileSync(HOST_SOCKET, copy);
  return copy;
}
const python = ['/usr/bin/python3', '/usr/local/bin/python3'].find((path) => existsSync(path));
const root = process.getuid?.() === 0;
const limitsOpen = { ...OPEN, limits: { processes: 64 } };

async function sandboxed(
  command: string,
  exec: object = OPEN,
): Promise<{ output: string; exitCode: unknown; ws: string }> {
  const env = execEnv({ exec });
  const out = structured(await (await env.run()).call('exec', { command }));
  return { output: String(out.output), exitCode: out.exitCode, ws: env.ws };
}

describe.skipIf(!SANDBOX_RUNS)('identity: no capabilities, not root, no way back', () => {
  it('CapEff, CapPrm and CapBnd are 0 inside and the command is nobody (uid 65534)', async () => {
    const { output } = await sandboxed('grep -E "^Cap(Eff|Prm|Bnd|Amb)" /proc/self/status; id -u; id -g');
    expect(output).toMatch(/CapEff:\s+0000000000000000/);
    expect(output).toMatch(/CapPrm:\s+0000000000000000/);
    expect(output).toMatch(/CapBnd:\s+0000000000000000/);
    expect(output.trim().split('\n').slice(-2)).toEqual(['65534', '65534']);
  });

  it('remounting / read-write fails, and so does a nested user namespace that would grant capabilities', async () => {
    const { output } = await sandboxed(
      'mount -o remount,bind,rw / && echo REMOUNTED; unshare -Urm true && echo NESTED; echo done',
    );
    expect(output).not.toContain('REMOUNTED');
    expect(output).not.toContain('NESTED');
    expect(output).toContain('done');
  });

  it("the project's own dist and files outside the workspace are not writable (nothing lands on this machine)", async () => {
    const probe = `exec-escape-${process.pid}`;
    const targets = [
      join(PACKAGE, 'dist', probe),
      join(PACKAGE, probe),
      `/root/${probe}`,
      `/var/tmp/${probe}`,
      `/${probe}`,
    ];
    // The attack of the issue: remount / read-write (it worked as root with every capability kept), then write.
    const command =
      [
        'mount -o remount,bind,rw / 2>/dev/null',
        ...targets.map((t) => `echo pwned > '${t}' 2>/dev/null && echo "WROTE ${t}"`),
      ].join('; ') + '; echo done';
    const { output } = await sandboxed(command);
    expect(output).not.toContain('WROTE');
    for (const target of targets) expect(existsSync(target)).toBe(false);
  });

  it('cannot raise its own limits: every cgroup file (pids.max) is read-only inside', async () => {
    const { output } = await sandboxed(
      'n=0; for f in $(find /sys/fs/cgroup -name pids.max 2>/dev/null); do n=$((n+1)); echo max 2>/dev/null > "$f" && echo "RAISED $f"; done; ulimit -Hu unlimited 2>/dev/null && echo RAISED-NPROC; echo "found $n"',
      limitsOpen,
    );
    expect(output).not.toContain('RAISED');
    // Where the command has a pids cgroup (root here), its own pids.max is among those tried.
    if (root && existsSync('/sys/fs/cgroup/pids/cgroup.procs'))
      expect(Number(/found (\d+)/.exec(output)?.[1])).toBeGreaterThan(0);
  });

  it('(the write probe works: on the gateway host it writes)', async () => {
    const env = execEnv({ exec: { ...OPEN, host: 'gateway' } });
    const target = join(env.outside, 'written');
    const out = structured(await (await env.run()).call('exec', { command: `echo x > '${target}' && echo "WROTE"` }));
    expect(String(out.output)).toContain('WROTE');
    expect(existsSync(target)).toBe(true);
  });
});

describe.skipIf(!python || !SANDBOX_RUNS)('host sockets: no route from inside to a Unix socket on this machine', () => {
  if (!python) console.log('skipping host socket routes: python3 is not installed (/usr/bin/python3)');

  async function streamAttempt(host: 'sandbox' | 'gateway'): Promise<{ output: string; received: string }> {
    const env = execEnv({ exec: { ...OPEN, host } });
    const path = join(env.ws, 'daemon.sock');
    let received = '';
    const daemon = createServer((socket) =>
      socket.on('data', (chunk) => (received += chunk.toString())).on('error', () => undefined),
    );
    await new Promise<void>((resolve) => daemon.listen(path, resolve));
    try {
      const out = structured(
        await (await env.run()).call('exec', { command: `python3 '${probeIn(env.ws)}' stream '${path}'` }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { output: String(out.output), received };
    } finally {
      await new Promise((resolve) => daemon.close(resolve));
    }
  }

  it('stream socket: connect(2) and io_uring IORING_OP_CONNECT both fail, and the server sees nothing', async () => {
    const { output, received } = await streamAttempt('sandbox');
    expect(output).toMatch(/^connect DENIED 13$/m);
    expect(output).toMatch(/^io_uring DENIED 1$/m); // io_uring_setup: EPERM
    expect(received).toBe('');
  });

  it('(both stream routes work from the gateway host)', async () => {
    const { output, received } = await streamAttempt('gateway');
    expect(output).toMatch(/^connect CONNECTED$/m);
    expect(output).toMatch(/^io_uring CONNECTED$/m);
    expect(received).toContain('via io_uring');
  });

  async function datagramAttempt(host: 'sandbox' | 'gateway'): Promise<{ output: string; received: string[] }> {
    const env = execEnv({ exec: { ...OPEN, host } });
    const path = join(env.ws, 'log.sock');
    // A host datagram socket (Node has none for AF_UNIX): prints every datagram until it gets END.
    const receiver = spawn(python!, [
      '-c',
      `import socket,sys\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM)\ns.bind(sys.argv[1])\nprint('READY',flush=True)\nwhile True:\n  d=s.recv(200)\n  print(d.decode(),flush=True)\n  if d==b'END': break`,
      path,
    ]);
    let lines = '';
    receiver.stdout.on('data', (chunk) => (lines += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!lines.includes('READY') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const out = structured(
        await (await env.run()).call('exec', { command: `python3 '${probeIn(env.ws)}' dgram '${path}'` }),
      );
      spawnSync(python!, [
        '-c',
        'import socket,sys; socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM).sendto(b"END", sys.argv[1])',
        path,
      ]);
      await new Promise((resolve) => receiver.once('exit', resolve));
      return { output: String(out.output), received: lines.trim().split('\n').slice(1, -1) };
    } finally {
      receiver.kill('SIGKILL');
    }
  }

  it('datagram socket: sendto from a Unix socket or from a datagram socketpair fails, and nothing arrives', async () => {
    const { output, received } = await datagramAttempt('sandbox');
    expect(output).toMatch(/^dgram-socket DENIED 13$/m);
    expect(output).toMatch(/^dgram-socketpair DENIED 13$/m);
    expect(output).toMatch(/^raw-socketpair DENIED 13$/m);
    expect(received).toEqual([]);
  });

  it('(every datagram route delivers from the gateway host)', async () => {
    const { output, received } = await datagramAttempt('gateway');
    expect(output).toMatch(/^dgram-socket SENT$/m);
    expect(received).toEqual(['via socket', 'via socketpair', 'via socketpair']);
  });

  it('stream socketpairs still work inside (pipes between processes are not sockets to the host)', async () => {
    const { output } = await sandboxed(
      `python3 -c "import socket; a, b = socket.socketpair(); a.send(b'ok'); print(b.recv(2).decode())"`,
    );
    expect(output).toBe('ok\n');
  });
});

/** Runs `argv` in the sandbox with bwrap started by uid 65534 (the seccomp program moved from stdin to fd 3). */
function asNobody(ws: string, argv: readonly string[]) {
  const args = sandboxArgs(
    { workspace: ws, cwd: ws, env: { PATH: '/usr/bin:/bin' }, limits: EXEC_LIMIT_DEFAULTS },
    argv,
  );
  return spawnSync(
    'sh',
    ['-c', 'exec setpriv --reuid=65534 --regid=65534 --clear-groups bwrap "$@" 3<&0 </dev/null', 'sh', ...args],
    { input: sandboxFilter(), encoding: 'utf8', timeout: 60_000 },
  );
}

describe.skipIf(!root || !SANDBOX_RUNS)(
  'as an unprivileged user (bwrap started by uid 65534 with the same arguments)',
  () => {
    it.skipIf(!python)(
      'RLIMIT_NPROC holds there (the processes bound of a gateway that is not root): a flood stops at the limit',
      () => {
        const ws = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-exec-user-')));
        spawnSync('chown', ['65534:65534', ws]);
        try {
          const flood =
            'import os, time\nkids = []\ntry:\n  for i in range(200):\n    pid = os.fork()\n    if pid == 0:\n      time.sleep(30); os._exit(0)\n    kids.append(pid)\nexcept OSError as e:\n  print("STOPPED AT", len(kids))\nfor k in kids: os.kill(k, 9)';
          const argv = innerLauncher(
            ['/bin/bash', '--norc', '--noprofile'],
            { ...EXEC_LIMIT_DEFAULTS, processes: 16 },
            true,
            ['python3', '-c', flood],
          );
          const result = asNobody(ws, argv);
          const stopped = /STOPPED AT (\d+)/.exec(result.stdout);
          expect(stopped, result.stdout + result.stderr).not.toBeNull();
          expect(Number(stopped![1])).toBeLessThan(16);
        } finally {
          rmSync(ws, { recursive: true, force: true });
        }
      },
    );

    it('CapEff is 0, the command is nobody, a remount fails, and writes outside the workspace do not land', () => {
      const ws = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-exec-user-')));
      spawnSync('chown', ['65534:65534', ws]);
      try {
        const command =
          'grep CapEff /proc/self/status; id -u; mount -o remount,bind,rw / && echo REMOUNTED; echo x > /var/tmp/exec-user-probe && echo WROTE; echo y > in-ws && echo INSIDE';
        const viaShell = asNobody(ws, ['/bin/sh', '-c', command]);
        expect(viaShell.stderr).not.toContain('bwrap:');
        expect(viaShell.stdout).toMatch(/CapEff:\s+0000000000000000/);
        expect(viaShell.stdout).toContain('65534');
        expect(viaShell.stdout).not.toContain('REMOUNTED');
        expect(viaShell.stdout).not.toContain('WROTE');
        expect(viaShell.stdout).toContain('INSIDE');
        expect(existsSync('/var/tmp/exec-user-probe')).toBe(false);
        expect(readFileSync(join(ws, 'in-ws'), 'utf8')).toBe('y\n');
      } finally {
        rmSync(ws, { recursive: true, force: true });
      }
    });
  },
);
