// The bubblewrap host: each escape is a test that fails if it works. Gateway runs show the probes themselves work.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExecErrors } from '@tool-search/plugin-exec';
import { closeAll, codeOf, execEnv, itSandboxed, OPEN, structured } from './fixtures.js';

afterEach(closeAll);

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    socket.end('HELLO\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const connect = () =>
  `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('NO NETWORK', e.code); process.exit(0) })"`;

describe('host "sandbox" (bubblewrap)', () => {
  itSandboxed('has no network: a connection to a server on this machine fails', async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const before = connections;
    const output = String(structured(await run.call('exec', { command: connect() })).output);
    expect(output).toContain('NO NETWORK');
    expect(output).not.toContain('CONNECTED');
    expect(connections).toBe(before);
  });

  it('(the probe connects from the gateway host, so the test above can fail)', async () => {
    const run = await execEnv({ exec: { ...OPEN, host: 'gateway' } }).run();
    expect(String(structured(await run.call('exec', { command: connect() })).output)).toContain('CONNECTED');
  });

  itSandboxed(
    'cannot connect to a Unix socket it can see (seccomp blocks connect), though the gateway host can',
    async () => {
      const env = execEnv({ exec: OPEN });
      const path = join(env.ws, 'daemon.sock');
      let accepted = 0;
      const daemon = createServer((socket) => {
        accepted++;
        socket.on('error', () => undefined).end('OK\n');
      });
      await new Promise<void>((resolve) => daemon.listen(path, resolve));
      try {
        const probe = `node -e "require('net').connect('${path}').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('REFUSED', e.code); process.exit(0) })"`;
        const sandboxed = String(structured(await (await env.run()).call('exec', { command: probe })).output);
        expect(sandboxed).toContain('REFUSED EACCES');
        expect(accepted).toBe(0);
        const gateway = execEnv({ exec: { ...OPEN, host: 'gateway' } });
        expect(String(structured(await (await gateway.run()).call('exec', { command: probe })).output)).toContain(
          'CONNECTED',
        );
      } finally {
        await new Promise((resolve) => daemon.close(resolve));
      }
    },
  );

  itSandboxed('cannot write outside the workspace: a sibling folder, the home folder, /etc', async () => {
    const env = execEnv({ exec: OPEN });
    const run = await env.run();
    const home = join(homedir(), `.exec-sandbox-probe-${process.pid}`);
    // The sibling folder lies under /tmp, which is the sandbox's own tmpfs: the write may "succeed" there, never here.
    // A home folder that exists outside /tmp is read-only inside (run as nobody, HOME may be missing or under /tmp).
    const homeReadOnly = existsSync(homedir()) && !homedir().startsWith('/tmp');
    for (const [target, readOnly] of [
      [join(env.outside, 'escaped.txt'), false],
      [home, homeReadOnly],
      ['/etc/exec-sandbox-probe', true],
    ] as const) {
      const out = structured(
        await run.call('exec', {
          command: `mkdir -p "$(dirname '${target}')" 2>/dev/null; echo pwned > '${target}'; echo rc=$?`,
        }),
      );
      // As root the sandbox's user (uid 65534 on the host) may not even enter /root: refused before the read-only mount.
      if (readOnly) expect(String(out.output)).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(target)).toBe(false);
    }
  });

  itSandboxed('/tmp is private: what a command writes there never reaches this machine', async () => {
    const env = execEnv({ exec: OPEN });
    const run = await env.run();
    const probe = join('/tmp', `exec-sandbox-tmp-${process.pid}`);
    expect(structured(await run.call('exec', { command: `echo x > ${probe} && cat ${probe}` })).output).toBe('x\n');
    expect(existsSync(probe)).toBe(false);
  });

  itSandboxed('can write in the workspace', async () => {
    const env = execEnv({ exec: OPEN });
    const run = await env.run();
    await run.call('exec', { command: 'mkdir -p out && echo built > out/artifact.txt' });
    expect(readFileSync(join(env.ws, 'out/artifact.txt'), 'utf8')).toBe('built\n');
  });

  itSandboxed(
    "gets an empty environment except what config and the call set (no leak of this process's env)",
    async () => {
      process.env.EXEC_TEST_SECRET = 'leak-me-if-you-can';
      try {
        for (const host of ['sandbox', 'gateway'] as const) {
          const run = await execEnv({ exec: { ...OPEN, host, env: { FROM_CONFIG: 'c' } } }).run();
          const output = String(structured(await run.call('exec', { command: 'env', env: { FROM_CALL: 'k' } })).output);
          expect(output).not.toContain('leak-me-if-you-can');
          expect(output).toContain('FROM_CONFIG=c');
          expect(output).toContain('FROM_CALL=k');
          const names = output
            .trim()
            .split('\n')
            .map((line) => line.split('=')[0])
            .sort();
          expect(names.filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n!))).toEqual([
            'FROM_CALL',
            'FROM_CONFIG',
            'HOME',
            'LANG',
            'OPENCLAW_SHELL',
            'PATH',
            'TERM',
          ]);
        }
      } finally {
        delete process.env.EXEC_TEST_SECRET;
      }
    },
  );

  itSandboxed("cannot see this machine's processes (own pid namespace)", async () => {
    const run = await execEnv({ exec: OPEN }).run();
    const output = String(structured(await run.call('exec', { command: 'ls /proc | grep -c "^[0-9]"' })).output);
    expect(Number(output.trim())).toBeLessThan(10);
  });
});

describe('where bubblewrap does not run', () => {
  const missing = '/nonexistent/bwrap';

  it('without tools.exec.host, exec is not listed (never silently on this machine) and the diagnostic says how to install bubblewrap', async () => {
    const run = await execEnv({ exec: OPEN, bwrap: missing }).run();
    expect(run.tool('exec')).toBeUndefined();
    const diagnostic = run.diagnostics.find((d) => d.code === ExecErrors.EXEC_HOST_UNAVAILABLE);
    expect(diagnostic).toMatchObject({ level: 'error', details: { host: 'sandbox' } });
    expect(diagnostic?.message).toContain('apt-get install -y bubblewrap');
  });

  it('with host "gateway" configured, exec runs on this machine (the operator chose it)', async () => {
    const run = await execEnv({ exec: { ...OPEN, host: 'gateway' }, bwrap: missing }).run();
    expect(structured(await run.call('exec', { command: 'echo hi' })).host).toBe('gateway');
  });

  it('with host "sandbox", exec is not listed (not faked)', async () => {
    const run = await execEnv({ exec: { ...OPEN, host: 'sandbox' }, bwrap: missing }).run();
    expect(run.tool('exec')).toBeUndefined();
    expect(run.diagnostics).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: ExecErrors.EXEC_HOST_UNAVAILABLE, level: 'error' })]),
    );
  });

  it('a sandboxed run does not get exec at all', async () => {
    const run = await execEnv({ exec: { ...OPEN, host: 'gateway' }, bwrap: missing }).run({ sandboxed: true });
    expect(run.tool('exec')).toBeUndefined();
  });
});

describe('elevated: the gateway host with security=full, gated by tools.elevated and the agent', () => {
  const agents = (enabled: boolean) => [{ id: 'ops', tools: { elevated: { enabled } } }];

  itSandboxed('a sandboxed run stays in the sandbox even when config says gateway', async () => {
    const run = await execEnv({ exec: { ...OPEN, host: 'gateway' } }).run({ sandboxed: true });
    expect(structured(await run.call('exec', { command: 'echo hi' })).host).toBe('sandbox');
  });

  itSandboxed(
    'elevated is refused with EXEC_ELEVATED_NOT_ALLOWED unless tools.elevated allows it and the agent does not turn it off',
    async () => {
      const cases = [
        { elevated: undefined, agents: agents(true) },
        { elevated: { enabled: true }, agents: agents(false) },
        { elevated: { enabled: false }, agents: agents(true) },
      ];
      for (const options of cases) {
        for (const sandboxed of [true, false]) {
          const run = await execEnv({ exec: OPEN, ...options }).run({ sandboxed, agentId: 'ops' });
          expect(codeOf(await run.call('exec', { command: 'echo hi', elevated: true }))).toBe(
            ExecErrors.EXEC_ELEVATED_NOT_ALLOWED,
          );
        }
      }
    },
  );

  itSandboxed('an agent without its own tools.elevated follows the global gate (it can only restrict)', async () => {
    const run = await execEnv({ exec: OPEN, elevated: { enabled: true }, agents: [{ id: 'ops' }] }).run({
      sandboxed: true,
      agentId: 'ops',
    });
    expect(structured(await run.call('exec', { command: 'echo hi', elevated: true }))).toMatchObject({
      host: 'gateway',
      exitCode: 0,
    });
  });

  itSandboxed(
    "allowed, a sandboxed agent's elevated command runs on the gateway host; without elevated it stays in the sandbox",
    async () => {
      const env = execEnv({ exec: OPEN, elevated: { enabled: true }, agents: agents(true) });
      const run = await env.run({ sandboxed: true, agentId: 'ops' });
      expect(structured(await run.call('exec', { command: 'echo hi', elevated: true })).host).toBe('gateway');
      expect(structured(await run.call('exec', { command: 'echo hi' })).host).toBe('sandbox');
    },
  );
});
