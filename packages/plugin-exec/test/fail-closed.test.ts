// Fail closed: host "sandbox" never becomes host execution. Where bubblewrap does not run, exec is not listed and a
// diagnostic says why and how to install it; a slow machine is not a missing sandbox (the probe retries).
import { chmodSync, chownSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { probeBubblewrap } from '@tool-search/plugin-exec';
import { closeAll, execEnv, OPEN, SANDBOX_RUNS, structured } from './fixtures.js';
import { ExecErrors } from '../src/errors.js';

afterEach(closeAll);

const REAL_BWRAP = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].find((path) => existsSync(path));
if (!REAL_BWRAP)
  console.warn('skipping the slow-probe tests: bubblewrap is not installed (apt-get install -y bubblewrap)');

/** A folder for a stand-in bwrap: a root gateway runs bwrap as uid 65534, which must reach (and here write) it. */
function binFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) chownSync(dir, 65534, 65534);
  chmodSync(dir, 0o755);
  return dir;
}

/** A bwrap that sleeps `seconds` before its first run only (a loaded machine), then is the real one. */
function slowBwrap(seconds: number): string {
  const dir = binFolder('plugin-exec-slow-');
  const script = join(dir, 'bwrap');
  writeFileSync(
    script,
    `#!/bin/sh\nif [ ! -e "${dir}/warm" ]; then : > "${dir}/warm"; sleep ${seconds}; fi\nexec ${REAL_BWRAP} "$@"\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

describe('without bubblewrap', () => {
  it('a PATH without bwrap: exec is not listed (default host sandbox), the diagnostic names the fix, nothing runs on this machine', async () => {
    const saved = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), 'plugin-exec-nobwrap-'));
    let env;
    try {
      env = execEnv({ exec: OPEN, bwrap: 'bwrap' });
    } finally {
      process.env.PATH = saved;
    }
    const run = await env.run();
    expect(run.tool('exec')).toBeUndefined();
    const diagnostic = run.diagnostics.find((d) => d.code === ExecErrors.EXEC_HOST_UNAVAILABLE);
    expect(diagnostic).toMatchObject({
      level: 'error',
      details: { host: 'sandbox', reason: expect.stringContaining('not installed') },
    });
    expect(diagnostic!.message).toContain('apt-get install -y bubblewrap');
    expect(diagnostic!.message).toContain('tools.exec.host');
  });

  it('a bwrap that cannot make its sandbox (refuses, exits non-zero) is the same: not listed, the reason kept', async () => {
    const dir = binFolder('plugin-exec-badbwrap-');
    const broken = join(dir, 'bwrap');
    writeFileSync(broken, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(broken, 0o755);
    const run = await execEnv({ exec: OPEN, bwrap: broken }).run();
    expect(run.tool('exec')).toBeUndefined();
    expect(run.diagnostics.find((d) => d.code === ExecErrors.EXEC_HOST_UNAVAILABLE)?.message).toContain(
      'Permission denied',
    );
  });
});

describe.skipIf(!REAL_BWRAP || !SANDBOX_RUNS)('a slow probe (a loaded machine)', () => {
  it('times out once, is retried with a longer timeout, and succeeds', () => {
    expect(probeBubblewrap(slowBwrap(3), [1000, 60_000])).toEqual({ ok: true, attempts: 2 });
  });

  it('the plugin then lists exec and runs commands in the sandbox', async () => {
    const run = await execEnv({ exec: OPEN, bwrap: slowBwrap(3), probeTimeoutsMs: [1000, 60_000] }).run();
    const out = structured(await run.call('exec', { command: 'id -u' }));
    expect(out).toMatchObject({ host: 'sandbox', output: '65534\n' });
  });

  it('a probe that never finishes within any timeout is a failure that says so (no host execution)', async () => {
    const dir = binFolder('plugin-exec-hang-');
    const hang = join(dir, 'bwrap');
    writeFileSync(hang, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(hang, 0o755);
    const result = probeBubblewrap(hang, [300, 600]);
    expect(result).toMatchObject({ ok: false, attempts: 2, reason: expect.stringContaining('did not finish') });
  });
});
