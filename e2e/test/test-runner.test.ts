/**
 * `npm test`'s scheduling (scripts/test.mjs): which workspaces share one vitest process, and how a shared run's
 * report is split back into one result per workspace (so the total and the per-workspace lines stay right).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failuresOf, planRuns, resultsOf, testedWorkspaces } from '../../scripts/test.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

function tree(configs: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'test-runner-'));
  for (const [dir, text] of Object.entries(configs)) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'vitest.config.ts'), text);
  }
  return root;
}

describe('planRuns', () => {
  const plain = "export default mergeConfig(base, defineProject({ test: { name: 'x' } }));";
  const withProjects = 'export default mergeConfig(base, defineProject({ test: { projects: [] } }));';

  it('runs the slow workspaces alone and the small ones together, longest first', () => {
    const root = tree({ 'packages/big': plain, 'packages/a': plain, 'packages/b': plain, e2e: withProjects });
    const runs = planRuns(
      ['e2e', 'packages/big', 'packages/a', 'packages/b'],
      { e2e: 100, 'packages/big': 30, 'packages/a': 2, 'packages/b': 3 },
      root,
    );
    expect(runs).toEqual([
      { dirs: ['e2e'], seconds: 100 },
      { dirs: ['packages/big'], seconds: 30 },
      { dirs: ['packages/b', 'packages/a'], seconds: 5 },
    ]);
  });

  it('cuts the small ones into batches of at most 30 s, so two lanes can balance them', () => {
    const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `packages/${n}`);
    const root = tree(Object.fromEntries(names.map((dir) => [dir, plain])));
    const times = { 'packages/a': 7, 'packages/b': 7, 'packages/c': 7, 'packages/d': 7, 'packages/e': 7 };
    const runs = planRuns(names, times, root);
    expect(runs.map((run: { dirs: string[] }) => run.dirs.length)).toEqual([4, 1]);
    expect(runs.every((run: { seconds: number }) => run.seconds <= 30)).toBe(true);
    expect(runs.flatMap((run: { dirs: string[] }) => run.dirs).sort()).toEqual(names);
  });

  it('keeps a small workspace with projects of its own alone (vitest does not nest projects)', () => {
    const root = tree({ 'packages/a': plain, 'packages/b': plain, 'packages/p': withProjects });
    const runs = planRuns(['packages/a', 'packages/b', 'packages/p'], { 'packages/p': 4 }, root);
    expect(runs).toContainEqual({ dirs: ['packages/p'], seconds: 4 });
    expect(runs).toContainEqual({ dirs: ['packages/a', 'packages/b'], seconds: 0 });
  });

  it('keeps a small workspace that sets its own maxWorkers alone (vitest refuses mixed ones in one group)', () => {
    const own = "export default mergeConfig(base, defineProject({ test: { name: 'c', maxWorkers: 2 } }));";
    const root = tree({ 'packages/a': plain, 'packages/b': plain, 'packages/c': own });
    const runs = planRuns(['packages/a', 'packages/b', 'packages/c'], { 'packages/c': 4 }, root);
    expect(runs).toContainEqual({ dirs: ['packages/c'], seconds: 4 });
    expect(runs).toContainEqual({ dirs: ['packages/a', 'packages/b'], seconds: 0 });
  });

  it('on this repository, however fast every workspace was, batches none that must run alone', () => {
    const dirs = testedWorkspaces(ROOT);
    const alone = dirs.filter((dir) =>
      /\b(projects|maxWorkers)\s*:/.test(readFileSync(join(ROOT, dir, 'vitest.config.ts'), 'utf8')),
    );
    expect(alone).toEqual(expect.arrayContaining(['e2e', 'packages/plugin-cron', 'packages/plugin-exec']));
    const runs = planRuns(dirs, Object.fromEntries(dirs.map((dir) => [dir, 1])), ROOT);
    for (const dir of alone) expect(runs).toContainEqual({ dirs: [dir], seconds: 1 });
  });

  it('does not make a batch of one', () => {
    const root = tree({ 'packages/a': plain, 'packages/big': plain });
    expect(planRuns(['packages/big', 'packages/a'], { 'packages/big': 50, 'packages/a': 1 }, root)).toEqual([
      { dirs: ['packages/big'], seconds: 50 },
      { dirs: ['packages/a'], seconds: 1 },
    ]);
  });
});

describe('resultsOf a shared run', () => {
  const file = (dir: string, name: string, statuses: string[], ms = 1000) => ({
    name: join(ROOT, dir, 'test', name),
    status: statuses.includes('failed') ? 'failed' : 'passed',
    startTime: 0,
    endTime: ms,
    assertionResults: statuses.map((status) => ({ status })),
  });
  const run = { code: 1, seconds: 9, cpu: 4, output: '' };

  it('splits the report by workspace folder, counting passed, failed and skipped tests', () => {
    const report = {
      testResults: [
        file('packages/a', 'one.test.ts', ['passed', 'passed', 'pending']),
        file('packages/a', 'two.test.ts', ['passed'], 500),
        file('packages/ab', 'one.test.ts', ['failed', 'passed']),
      ],
    };
    const [a, ab] = resultsOf(['packages/a', 'packages/ab'], report, run);
    expect(a).toMatchObject({ dir: 'packages/a', files: 2, passed: 3, failed: 0, skipped: 1, code: 0, seconds: 1.5 });
    expect(ab).toMatchObject({ dir: 'packages/ab', files: 1, passed: 1, failed: 1, failedFiles: 1, code: 1 });
  });

  it('counts a workspace of a shared run with no file in the report as not finished (its project never started)', () => {
    const report = { testResults: [file('packages/a', 'one.test.ts', ['passed'])] };
    const [a, b] = resultsOf(['packages/a', 'packages/b'], report, run);
    expect(a).toMatchObject({ crashed: false, code: 0, passed: 1 });
    expect(b).toMatchObject({ crashed: true, code: 1, files: 0 });
  });

  it('counts every workspace of a run that wrote no report as not finished', () => {
    const results = resultsOf(['packages/a', 'packages/b'], undefined, run);
    expect(results.map((r: { crashed: boolean }) => r.crashed)).toEqual([true, true]);
  });
});

describe('failuresOf', () => {
  it('names each failed test with the first lines of its message, and a file that failed with no test', () => {
    const stack = [
      '    at /repo/node_modules/@vitest/runner/dist/index.js:1:1',
      ...Array.from({ length: 30 }, (_, i) => `    at frame ${i} (/repo/packages/a/test/one.test.ts:${i}:1)`),
    ].join('\n');
    const report = {
      testResults: [
        {
          name: join(ROOT, 'packages/a/test/one.test.ts'),
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'a works' },
            {
              status: 'failed',
              fullName: 'a > sends progress',
              failureMessages: [
                `\u001b[31mAssertionError: expected [ 0, 50 ] to deeply equal [ 0, 50, 100 ]\u001b[39m\n${stack}`,
              ],
            },
          ],
        },
        {
          name: join(ROOT, 'packages/b/test/two.test.ts'),
          status: 'failed',
          message: 'Cannot find module x',
          assertionResults: [],
        },
        { name: join(ROOT, 'packages/b/test/ok.test.ts'), status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    };
    const failures = failuresOf(report);
    expect(failures.map((f: { file: string; name: string }) => [f.file, f.name])).toEqual([
      ['packages/a/test/one.test.ts', 'a > sends progress'],
      ['packages/b/test/two.test.ts', '(the file itself)'],
    ]);
    const lines = failures[0]!.message.split('\n');
    expect(lines[0]).toBe('AssertionError: expected [ 0, 50 ] to deeply equal [ 0, 50, 100 ]');
    expect(lines[1]).toBe('    at frame 0 (/repo/packages/a/test/one.test.ts:0:1)');
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(failures[1]!.message).toBe('Cannot find module x');
  });

  it('is carried on each workspace of a shared run', () => {
    const report = {
      testResults: [
        {
          name: join(ROOT, 'packages/a/test/one.test.ts'),
          status: 'failed',
          startTime: 0,
          endTime: 1,
          assertionResults: [{ status: 'failed', fullName: 'x', failureMessages: ['boom'] }],
        },
      ],
    };
    const [a, b] = resultsOf(['packages/a', 'packages/b'], report, { code: 1, seconds: 1, cpu: 1, output: '' });
    expect(a!.failures).toEqual([{ file: 'packages/a/test/one.test.ts', name: 'x', message: 'boom' }]);
    expect(b!.failures).toEqual([]);
  });
});
