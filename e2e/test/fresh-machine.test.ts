/**
 * The README's `npm test` on a fresh machine: without bubblewrap, redis-server and chromium (a PATH that lacks them),
 * the tests that need them skip, each naming the `apt-get install` line that makes it run, and the run still ends green
 * with the one total line CI reads. It runs every test file that needs one of them (found by its skip line, in the
 * file or a helper beside it: `testFilesNeedingSystemPackages`), in every workspace that has one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  missingSystemPackages,
  pathWithout,
  SYSTEM_PACKAGES,
  testFilesNeedingSystemPackages,
} from '../../scripts/system-packages.mjs';
import { totalLines } from '../../scripts/test.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => done({ code, output }));
  });
}

/** One PATH without them for both tests (a folder of symlinks to every other binary on PATH). */
let freshPath: string | undefined;
const HIDDEN = ['bwrap', 'redis-server', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const withoutThem = () => (freshPath ??= pathWithout(HIDDEN, join(mkdtempSync(join(tmpdir(), 'fresh-path-')), 'bin')));

describe('npm test on a machine without bubblewrap, redis-server and chromium', () => {
  it('the simulated PATH really lacks them (so the next test can fail)', () => {
    const path = withoutThem();
    expect(missingSystemPackages({ ...process.env, PATH: path }).map((p) => p.name)).toEqual(
      SYSTEM_PACKAGES.map((p) => p.name),
    );
  });

  it('skips what needs them, says which package makes it run, and passes with one total', {
    timeout: 600_000,
  }, async () => {
    const path = withoutThem();
    const files = testFilesNeedingSystemPackages(root, ['fresh-machine.test.ts']);
    // Each package's own tests, the front ends' and the end-to-end ones.
    for (const dir of ['plugin-exec', 'state', 'plugin-browser', 'plugin-diffs', 'inspect', 'preset', 'cli', 'e2e'])
      expect(files.some((file) => file.includes(`/${dir}/test/`))).toBe(true);
    // Two workspaces at a time, as the README's `npm test` runs them on this 2-core machine.
    const { code, output } = await run(
      [
        'scripts/test.mjs',
        '--no-build',
        '--no-checks', // the outer npm test ran them; this run is about the tests that need the system packages
        '--no-typecheck',
        '--no-times',
        '--jobs',
        '2',
        ...files,
      ],
      { ...process.env, PATH: path },
    );
    for (const name of ['bubblewrap', 'redis-server', 'chromium'])
      expect(output).toContain(`apt-get install -y ${name}`);
    expect(output).toMatch(
      /skipping the bubblewrap sandbox tests of @tool-search\/plugin-exec: .*apt-get install -y bubblewrap/,
    );
    expect(output).toMatch(/^Tests: \d+ passed, 0 failed, [1-9]\d* skipped/m);
    const last = output.trimEnd().split('\n').at(-1);
    expect(last).toMatch(/^[1-9]\d* passed, 0 failed$/);
    expect(code).toBe(0);
  });
});

describe('the closing lines', () => {
  it('add every workspace up and count one that did not finish as failed', () => {
    const base = { files: 2, passed: 5, failed: 0, skipped: 1, failedFiles: 0, crashed: false };
    const lines = totalLines([
      { ...base, dir: 'packages/a' },
      { ...base, dir: 'packages/b', failed: 2, failedFiles: 1 },
      { ...base, dir: 'packages/c', files: 0, passed: 0, skipped: 0, crashed: true },
    ]);
    expect(lines[1]).toBe('Tests: 10 passed, 2 failed, 2 skipped (14 total)');
    expect(lines[2]).toBe('10 passed, 3 failed');
    expect(lines[0]).toContain('packages/c');
  });
});
