/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance,
 * pinned) runs its client scenarios with plugin-mcp as the client under test:
 * every scenario that is not a draft or an extension must pass with no
 * failed check. The suite imports Node 22's `fs.globSync`; node20-shim.mjs
 * supplies it on Node 20.
 *
 * The suite's own CLI runs them, most at once (see PHASES), each scenario
 * against its own server: one CLI start costs ~1 s of CPU, and one CLI per
 * scenario, one after another, was most of this file's time. Each scenario is
 * still its own test, read from the `checks.json` the CLI writes for it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay } from './drive.js';

const run = promisify(execFile);
/** Generous: a whole suite runs in one CLI, on a loaded machine too (its clients end by CLIENT_TIMEOUT_MS). */
const RUN_TIMEOUT_MS = 180_000;
/** The client command's own limit in the CLI (its default is 30 s). */
const CLIENT_TIMEOUT_MS = 120_000;
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const shim = join(here, 'node20-shim.mjs');
const conformance = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, ['--import', shim, cli, ...args], {
    env: { ...process.env, ...env },
    timeout: RUN_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });

/** Every non-draft, non-extension client scenario of 0.1.16; the first test checks the suite agrees. */
const SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

/** Extension scenarios plugin-mcp supports too: client credentials for machine-to-machine servers. */
const EXTENSIONS = ['auth/client-credentials-basic'];

/** Checks that measure elapsed time: a WARNING there (late, within twice the wait) is the machine, not the client. */
const TIMING_CHECKS = new Set(['client-sse-retry-timing']);

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description?: string;
  readonly errorMessage?: string;
}

/**
 * How the CLI runs them. First, all at once: the `auth` and `backcompat` suites (each one CLI running its scenarios
 * in parallel) and the other scenarios one CLI each. Then, alone, the scenario whose check measures the reconnect
 * delay against the wall clock (1 s late is a failure): with 20 clients busy in this process it can be. Each scenario
 * of SCENARIOS and EXTENSIONS is in exactly one run: each test checks that it found exactly one result.
 */
const PHASES: readonly (readonly (readonly string[])[])[] = [
  [
    ['--suite', 'auth'],
    ['--suite', 'backcompat'],
    ...['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', ...EXTENSIONS].map((scenario) => [
      '--scenario',
      scenario,
    ]),
  ],
  [['--scenario', 'sse-retry']],
];

interface RunOutcome {
  readonly dir: string;
  readonly stdout: string;
  readonly stderr: string;
}

describe('MCP conformance client scenarios, plugin-mcp as the client', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  const output = mkdtempSync(join(tmpdir(), 'plugin-mcp-conformance-'));
  let runs: Promise<RunOutcome[]>;

  beforeAll(async () => {
    relay = await startRelay();
    const command = `${process.execPath} ${join(here, 'relay.mjs')}`;
    const runOne = async (args: readonly string[]): Promise<RunOutcome> => {
      const dir = join(output, args.join('_').replace(/\W/g, '_'));
      const result = await conformance(
        ['client', '--command', command, ...args, '--timeout', String(CLIENT_TIMEOUT_MS), '-o', dir],
        { PLUGIN_MCP_CONFORMANCE_RELAY: relay.url },
      ).catch((error: { stdout?: string; stderr?: string }) => error);
      return { dir, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
    };
    // Started here, awaited by the tests: the CLI exits 1 when any check fails, so the verdict is read per scenario
    // from the files, and a failed run resolves with what it printed (never an unhandled rejection).
    runs = (async () => {
      const outcomes: RunOutcome[] = [];
      for (const phase of PHASES) outcomes.push(...(await Promise.all(phase.map(runOne))));
      return outcomes;
    })();
  });
  afterAll(async () => {
    await runs; // never rejects: each run resolves with what its CLI printed
    await relay?.close();
    rmSync(output, { recursive: true, force: true });
  });

  it(
    'covers every non-draft, non-extension client scenario the suite lists',
    async () => {
      const { stdout } = await conformance(['list']);
      const client = stdout.slice(stdout.indexOf('Client scenarios'));
      const listed = [...client.matchAll(/^\s+- (\S+) \[([^\]]+)\]/gm)]
        .filter(([, , versions]) => !/draft|extension/.test(versions!))
        .map(([, name]) => name);
      expect(listed).toEqual(SCENARIOS);
    },
    // Its CLI starts beside the first phase's: slow on a loaded machine.
    RUN_TIMEOUT_MS + 30_000,
  );

  it.each([...SCENARIOS, ...EXTENSIONS])(
    '%s passes',
    async (scenario) => {
      const outcomes = await runs;
      const found = outcomes.flatMap((outcome) => scenarioDirs(outcome.dir, scenario).map((dir) => ({ dir, outcome })));
      const cli = outcomes.map((outcome) => `${outcome.dir}:\n${outcome.stdout}\n${outcome.stderr}`).join('\n');
      expect(found.length, `one result of ${scenario} in the runs' output\n${cli}`).toBe(1);
      const [{ dir, outcome }] = found as [{ dir: string; outcome: RunOutcome }];
      const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as Check[];
      // A warning counts as a miss too, except the one that measures reconnect delay against the wall clock
      // (slightly late on a loaded machine); that check still fails when the client ignores `retry`.
      const bad = checks.filter(
        (check) => check.status === 'FAILURE' || (check.status === 'WARNING' && !TIMING_CHECKS.has(check.id)),
      );
      const client = ['stdout.txt', 'stderr.txt'].map((file) => readText(join(dir, file))).join('\n');
      expect(bad, `${client}\n${outcome.stdout}\n${outcome.stderr}`).toEqual([]);
      expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
    },
    // Each test waits for every phase: one after another, each within RUN_TIMEOUT_MS.
    PHASES.length * RUN_TIMEOUT_MS + 30_000,
  );
});

/** The result folders of `scenario` in a CLI output folder: `<scenario>-<ISO time with - for : and .>`. */
function scenarioDirs(output: string, scenario: string): string[] {
  const parent = join(output, dirname(scenario));
  if (!existsSync(parent)) return [];
  const stamp = /^-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
  return readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(basename(scenario)))
    .filter((entry) => stamp.test(entry.name.slice(basename(scenario).length)))
    .map((entry) => join(parent, entry.name))
    .filter((dir) => existsSync(join(dir, 'checks.json')));
}

function readText(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
