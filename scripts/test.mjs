#!/usr/bin/env node
// `npm test`: the dependency and packaging checks with the lint (at once), the build through Nx (`npm run build`:
// cached per project, what changed is one `tsc -b`), then one typecheck over every package running beside each
// workspace's vitest run (two workspaces at a time, the slowest of the last run first), and one total at the end.
// Usage: node scripts/test.mjs [--no-checks] [--no-typecheck] [--no-build] [--no-times] [--jobs N] [workspace-dir ...]
//        [test-file ...]  (a path ending in .test.ts runs that file only, in its workspace)
//   --no-checks  skip the dependency/packaging checks and Biome (a nested run whose caller already ran them)
//   --no-times  do not record this run's durations (the order of the next run): for a run that is not the usual one
// Why the typecheck runs beside vitest: the test files wait on child processes, servers and code timeouts much of the
// time, so on 2 cores the typecheck (one tsc process, CPU-bound) fills what the vitest lanes leave idle.
// A machine without bubblewrap or redis-server runs everything else: the tests that need them skip, saying so, and the
// preflight below names the `apt-get install` line that makes them run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nxBuild } from './build.mjs';
import { workspaceDirs } from './check-packages.mjs';
import { missingSystemPackages } from './system-packages.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const TIMES = join(ROOT, 'node_modules/.cache/tool-search/test-times.json');
// Seconds per workspace of a full run on a 2-core machine, for the order of a run without a last run of its own (a
// fresh clone, as in CI): without it the longest workspaces could start last and leave one lane running alone.
// Refresh it from node_modules/.cache/tool-search/test-times.json when the order of the slowest ones changes.
const SEED_TIMES = join(ROOT, 'scripts/test-times.json');

/** `{ files, passed, failed, skipped }` from a vitest JSON report (`--reporter=json`). */
export function countsOf(report) {
  return {
    files: report.testResults?.length ?? 0,
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    failedFiles: (report.testResults ?? []).filter((file) => file.status === 'failed').length,
  };
}

/**
 * The failed tests of a vitest JSON report: file (relative to the root), full name and the first lines of the
 * failure (the assertion and where it failed), printed again at the end of a run so a long log's tail shows them.
 */
export function failuresOf(report, root = ROOT) {
  return (report?.testResults ?? []).flatMap((file) => {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    const where = relative(root, file.name);
    // A file that failed with no failed test (a throw at import, a failing hook) carries its message on the file.
    if (!failedTests.length && file.status === 'failed')
      return [{ file: where, name: '(the file itself)', message: firstLines(file.message ?? '') }];
    return failedTests.map((test) => ({
      file: where,
      name: test.fullName ?? test.title,
      message: firstLines((test.failureMessages ?? []).join('\n')),
    }));
  });
}

const FAILURE_LINES = 12;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;
function firstLines(text) {
  // Frames in dependencies and Node's internals say nothing about which line of ours failed.
  const ours = (line) => !/^\s+at .*(node_modules|node:internal|<anonymous>)/.test(line);
  return text.replace(ANSI_COLOUR, '').trimEnd().split('\n').filter(ours).slice(0, FAILURE_LINES).join('\n');
}

/** The closing lines of a run: one `Tests:` total and a plain `N passed, N failed` line CI can read. */
export function totalLines(results) {
  const sum = (key) => results.reduce((n, r) => n + r[key], 0);
  const broken = results.filter((r) => r.crashed).length;
  return [
    `Test files: ${sum('files')} in ${results.length} workspaces${
      broken
        ? ` (${broken} did not finish: ${results
            .filter((r) => r.crashed)
            .map((r) => r.dir)
            .join(', ')})`
        : ''
    }`,
    `Tests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped (${sum('passed') + sum('failed') + sum('skipped')} total)`,
    `${sum('passed')} passed, ${sum('failed') + broken} failed`,
  ];
}

/**
 * Workspaces with a `test` script, the slowest of the last run first (so two lanes finish together); a workspace the
 * last run did not time (or a fresh clone) takes its seconds from the committed scripts/test-times.json.
 */
export function testedWorkspaces(root = ROOT, only = []) {
  const times = { ...readTimes(SEED_TIMES), ...readTimes(TIMES) };
  return workspaceDirs(root)
    .filter((dir) => (only.length ? only.includes(dir) : true))
    .filter((dir) => existsSync(join(root, dir, 'vitest.config.ts')))
    .sort((a, b) => (times[b] ?? 0) - (times[a] ?? 0));
}

const isTestFile = (arg) => arg.endsWith('.test.ts');

/** The workspace folder (relative to the root) of a test file's absolute path. */
function workspaceOf(file) {
  const rel = relative(ROOT, file).split('/');
  return rel[0] === 'packages' ? `packages/${rel[1]}` : rel[0];
}

function readTimes(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/**
 * CPU seconds (user + system) of this process's children that have ended, from /proc (Linux; undefined elsewhere).
 * A child's CPU is added when it is reaped, so the growth between two ends is the CPU of the child that just ended:
 * per-workspace CPU with two lanes running at once, which says more than wall time on a shared machine.
 */
function endedChildrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After the command name: state is field 3 of stat(5), cutime 16 and cstime 17, in clock ticks (100 a second).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined; // not Linux: no CPU column
  }
}

let reapedCpu = endedChildrenCpu() ?? 0;
/** CPU seconds of the children that ended since the last call (see `endedChildrenCpu`). */
function cpuSince() {
  const now = endedChildrenCpu();
  if (now === undefined) return undefined;
  const spent = now - reapedCpu;
  reapedCpu = now;
  return spent;
}

// Workspaces whose tests took less than this (last run, else scripts/test-times.json) run together in one vitest
// process, one project each: vitest's own start-up (~0.6 s of CPU a process) is paid once for all of them, not 40 times
// (measured on 12 small workspaces: 18 s of CPU one process each, 11 s in one). A workspace whose config declares
// projects of its own (e2e, mode-code) always runs alone: vitest does not nest projects. So does one that sets its own
// `maxWorkers` (plugin-cron, plugin-exec): vitest refuses projects with different ones in one group, and the whole
// batch fails to start (a fast machine made plugin-cron small enough to be batched).
const BATCH_BELOW_SECONDS = 8;
const RUNS_ALONE = /\b(projects|maxWorkers)\s*:/;

// A batch holds at most this many seconds of tests, so batches are lane-sized pieces the two lanes can balance
// (one batch of every small workspace was a 185 s piece on a loaded machine).
const BATCH_SECONDS = 30;

/**
 * Splits the ordered workspaces into those that run alone and batches of small ones (see BATCH_BELOW_SECONDS),
 * longest first.
 */
export function planRuns(dirs, times, root = ROOT) {
  const seconds = (dir) => times[dir] ?? 0;
  const small = dirs.filter(
    (dir) =>
      seconds(dir) < BATCH_BELOW_SECONDS && !RUNS_ALONE.test(readFileSync(join(root, dir, 'vitest.config.ts'), 'utf8')),
  );
  const runs = dirs.filter((dir) => !small.includes(dir)).map((dir) => ({ dirs: [dir], seconds: seconds(dir) }));
  // First fit, longest first: each small workspace joins the first batch it fits in.
  const batches = [];
  for (const dir of [...small].sort((a, b) => seconds(b) - seconds(a))) {
    const batch = batches.find((b) => b.seconds + seconds(dir) <= BATCH_SECONDS);
    if (batch) {
      batch.dirs.push(dir);
      batch.seconds += seconds(dir);
    } else batches.push({ dirs: [dir], seconds: seconds(dir) });
  }
  return [...runs, ...batches].sort((a, b) => b.seconds - a.seconds);
}

/** Runs one vitest process: in the workspace's folder, or over a batch's projects (a config written for it). */
let batchCount = 0;
function runVitest(dirs, reportDir, files = []) {
  const name = dirs.length === 1 ? dirs[0] : `batch-${++batchCount}`;
  const report = join(reportDir, `${name.replaceAll('/', '_')}.json`);
  const args = [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  // vitest's positional filters keep the files whose path contains one of them: the chosen files of these workspaces,
  // and the folder of a workspace chosen whole (in a batch beside one narrowed to files).
  const inDir = (dir) => files.filter((file) => file.startsWith(`${join(ROOT, dir)}/`));
  if (dirs.some((dir) => inDir(dir).length))
    args.push(...dirs.flatMap((dir) => (inDir(dir).length ? inDir(dir) : [`${join(ROOT, dir)}/`])));
  if (dirs.length > 1) {
    const config = join(reportDir, `vitest.${name}.config.mjs`);
    const projects = dirs.map((dir) => join(ROOT, dir, 'vitest.config.ts'));
    // One worker, as every workspace run alone has in its lane: the batch is one lane's work.
    writeFileSync(config, `export default ${JSON.stringify({ test: { projects, maxWorkers: 1 } })};\n`);
    args.push('--config', config, '--root', ROOT);
  }
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: join(ROOT, dirs.length === 1 ? dirs[0] : '.'),
      env: { ...process.env, NO_COLOR: '1', CI: process.env.CI ?? 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      const cpu = cpuSince();
      const parsed = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
      done({ code, seconds, cpu, output, results: resultsOf(dirs, parsed, { code, seconds, cpu, output }) });
    });
  });
}

/** One result per workspace of a run: its counts from the JSON report (a batch's files split by folder). */
export function resultsOf(dirs, report, run) {
  if (dirs.length === 1) {
    const counts = report ? countsOf(report) : undefined;
    return [
      {
        dir: dirs[0],
        ...run,
        crashed: !counts,
        ...(counts ?? { files: 0, passed: 0, failed: 0, skipped: 0, failedFiles: 0 }),
        failures: failuresOf(report),
      },
    ];
  }
  return dirs.map((dir) => {
    const prefix = `${join(ROOT, dir)}/`;
    const files = (report?.testResults ?? []).filter((file) => file.name.startsWith(prefix));
    const tests = files.flatMap((file) => file.assertionResults ?? []);
    const count = (status) => tests.filter((test) => test.status === status).length;
    // Every workspace here has tests: none in the report means its project never ran (the process failed first).
    const ranNone = files.length === 0;
    return {
      dir,
      code: ranNone || files.some((file) => file.status === 'failed') ? 1 : 0,
      seconds: files.reduce((n, file) => n + Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)) / 1000, 0),
      cpu: undefined,
      output: '',
      crashed: !report || ranNone,
      files: files.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('pending') + count('skipped') + count('todo'),
      failedFiles: files.filter((file) => file.status === 'failed').length,
      failures: failuresOf({ testResults: files }),
    };
  });
}

function indent(text, by) {
  return text
    .split('\n')
    .map((line) => by + line)
    .join('\n');
}

/** What a finished workspace prints: one line when green (plus why anything skipped), everything when not. */
function report(result) {
  const ok = result.code === 0 && !result.crashed && result.failed === 0;
  return [countsLine(result, ok), ...details(result.output, ok)].join('\n') + '\n';
}

/** A batch: one line for the process, one per workspace, then why anything skipped (and vitest's output on failure). */
function batchReport(ran) {
  const ok = ran.code === 0 && ran.results.every((r) => !r.crashed && r.failed === 0);
  const cpu = ran.cpu === undefined ? '' : ` (CPU ${ran.cpu.toFixed(1)} s)`;
  const head = `${ok ? 'ok  ' : 'FAIL'} ${ran.results.length} small workspaces in one vitest process, ${ran.seconds.toFixed(1)} s${cpu}:`;
  const lines = ran.results.map((r) => `  ${countsLine(r, r.code === 0 && !r.crashed && r.failed === 0)}`);
  return [head, ...lines, ...details(ran.output, ok)].join('\n') + '\n';
}

function countsLine(result, ok) {
  const cpu = result.cpu === undefined ? '' : ` (CPU ${result.cpu.toFixed(1)} s)`;
  return `${ok ? 'ok  ' : 'FAIL'} ${result.dir.padEnd(30)} ${String(result.files).padStart(3)} files  ${String(result.passed).padStart(4)} passed  ${result.failed} failed  ${result.skipped} skipped  ${result.seconds.toFixed(1)} s${cpu}`;
}

/** The "skipping …: why" lines a run printed, and all of its output when it failed. */
function details(output, ok) {
  const lines = output.replace(ANSI_COLOUR, '').split('\n');
  const skips = [...new Set(lines.filter((l) => /^\s*skipping /.test(l)).map((l) => l.trim()))];
  return [...skips.map((s) => `       ${s}`), ...(ok ? [] : [output.trimEnd(), ''])];
}

/**
 * The build, through Nx (`npm run build`): projects whose inputs did not change come from its cache, the rest are one
 * `tsc -b` (scripts/nx-tsc, scripts/build.mjs). Prints Nx's summary, or all of its output when the build failed.
 */
function buildStep() {
  process.stdout.write('\n> build (nx run-many -t build: from the Nx cache, or one tsc -b over what changed)\n');
  const started = Date.now();
  const { ok, output } = nxBuild(ROOT);
  const cpu = cpuSince();
  process.stdout.write(
    `${output}  (${ok ? 'passed' : 'FAILED'}, ${((Date.now() - started) / 1000).toFixed(1)} s${cpu === undefined ? '' : `, CPU ${cpu.toFixed(1)} s`})\n`,
  );
  return ok;
}

/**
 * A step that runs beside others: its output is collected and printed in one piece when it ends (so steps running at
 * once do not interleave), resolving to whether it passed.
 */
function backgroundStep(title, command, args) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const cpu = cpuSince();
      process.stdout.write(
        `\n> ${title}\n${output.trimEnd() ? `${output.trimEnd()}\n` : ''}  (${code === 0 ? 'passed' : 'FAILED'}, ${seconds} s${cpu === undefined ? '' : `, CPU ${cpu.toFixed(1)} s`})\n`,
      );
      done(code === 0);
    });
  });
}

async function main(argv) {
  const begun = Date.now();
  const flag = (name) => argv.includes(name);
  const jobsAt = argv.indexOf('--jobs');
  const jobs = jobsAt >= 0 ? Number(argv[jobsAt + 1]) : Math.max(1, Math.min(2, cpus().length));
  const selected = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--jobs');
  const files = selected.filter(isTestFile).map((file) => resolve(ROOT, file));
  const only = [...new Set([...selected.filter((a) => !isTestFile(a)), ...files.map(workspaceOf)])];

  for (const { name, binary, why } of missingSystemPackages()) {
    process.stdout.write(
      `note: ${binary} is not installed, so ${why} skip; \`apt-get install -y ${name}\` makes them run\n`,
    );
  }
  // Both only read the tree: they run at once.
  const checks = flag('--no-checks')
    ? []
    : await Promise.all([
        backgroundStep('dependency and packaging checks', process.execPath, ['scripts/check-deps.mjs']),
        // `biome ci`: the lint rules and the formatting (biome.json), read-only; `npm run format` fixes the formatting.
        backgroundStep('lint and format check (Biome: biome.json)', process.execPath, [
          join(ROOT, 'node_modules/@biomejs/biome/bin/biome'),
          'ci',
          '--error-on-warnings',
          '--colors=off',
        ]),
      ]);
  if (checks.includes(false)) process.exit(1);
  if (!flag('--no-build') && !buildStep()) process.exit(1);
  const typecheck = flag('--no-typecheck')
    ? Promise.resolve(true)
    : backgroundStep('typecheck (one tsc -b over every tsconfig.spec.json, beside the tests)', process.execPath, [
        'scripts/typecheck.mjs',
        '--no-build',
        ...only,
      ]);

  const dirs = testedWorkspaces(ROOT, only);
  const queue = planRuns(dirs, { ...readTimes(SEED_TIMES), ...readTimes(TIMES) });
  const batches = queue.filter((run) => run.dirs.length > 1);
  const batched = batches.reduce((n, run) => n + run.dirs.length, 0);
  process.stdout.write(
    `\n> vitest in ${dirs.length} workspaces (${batched ? `${batched} small ones in ${batches.length} processes, ` : ''}${jobs} processes at a time${flag('--no-typecheck') ? '' : ', the typecheck beside them'})\n`,
  );
  const reportDir = mkdtempSync(join(tmpdir(), 'tool-search-test-'));
  const results = [];
  // A vitest process that exited non-zero fails the run even when every test it reported passed (an unhandled error).
  const failedProcesses = [];
  const lane = async () => {
    for (let run = queue.shift(); run !== undefined; run = queue.shift()) {
      const ran = await runVitest(run.dirs, reportDir, files);
      results.push(...ran.results);
      if (ran.code !== 0) failedProcesses.push(`${run.dirs.join(', ')} (exit ${ran.code})`);
      process.stdout.write(run.dirs.length === 1 ? report(ran.results[0]) : batchReport(ran));
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: jobs }, lane));
  const typechecked = await typecheck;

  if (!flag('--no-times')) {
    const times = existsSync(TIMES) ? JSON.parse(readFileSync(TIMES, 'utf8')) : {};
    for (const r of results) times[r.dir] = r.seconds;
    mkdirSync(join(TIMES, '..'), { recursive: true });
    writeFileSync(TIMES, JSON.stringify(times, null, 2));
  }

  const spent = endedChildrenCpu();
  const cpuTotal = spent === undefined ? '' : ` (CPU ${spent.toFixed(0)} s on ${cpus().length} cores)`;
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
  process.stdout.write(
    `\nslowest: ${slowest.map((r) => `${r.dir} ${r.seconds.toFixed(0)} s`).join(', ')}; vitest wall ${((Date.now() - started) / 1000).toFixed(0)} s, npm test ${((Date.now() - begun) / 1000).toFixed(0)} s in all${cpuTotal}\n`,
  );
  const failures = results.flatMap((r) => r.failures);
  if (failures.length) {
    process.stdout.write(`\nfailed tests (${failures.length}; each workspace's whole output is above):\n`);
    for (const f of failures) process.stdout.write(`\n  ${f.file} > ${f.name}\n${indent(f.message, '    ')}\n`);
    process.stdout.write('\n');
  }
  if (!typechecked) process.stdout.write('the typecheck FAILED (its errors are above)\n');
  for (const line of failedProcesses) process.stdout.write(`a vitest process FAILED: ${line}; its output is above\n`);
  for (const line of totalLines(results)) process.stdout.write(`${line}\n`);
  // A failed test or a workspace's own exit code makes its process exit non-zero: failedProcesses holds those.
  const failed = !typechecked || failedProcesses.length > 0 || results.some((r) => r.crashed || r.failed > 0);
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
