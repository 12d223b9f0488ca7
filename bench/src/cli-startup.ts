/**
 * CLI start-up: wall time from spawn to exit of the built `tool-search` bin for `--help`, a mistyped command,
 * `tools --help` and `tools list` on the demo catalog, and from spawn to listening for the gateway and `serve mcp`,
 * each next to a bare `node -e 0` spawned just before it (the ratio is per pair, so machine load cancels out), with
 * each process's CPU time where Linux reports it. Goals: `--help` within 1.5x of `node -e 0`, `tools list` under 0.5 s.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';

export interface CliStartupRow {
  readonly command: string;
  readonly medianMs: number;
  /**
   * Median CPU time (user + system) of the command's process: what the command itself costs, which a loaded machine
   * changes far less than the wall time. Absent where the OS does not report children's CPU time (Linux does).
   */
  readonly cpuMs?: number;
  readonly nodeCpuMs?: number;
  /** Median of per-pair ratios: this command / a `node -e 0` spawned right before it. */
  readonly ratioToNode: number;
  readonly exitCode: number;
}

export interface CliStartupResult {
  readonly nodeMs: number;
  readonly rows: readonly CliStartupRow[];
  /** 1-minute load average just before and just after the measurement: the box is shared, so say how busy it was. */
  readonly load?: { readonly before: number; readonly after: number };
  readonly skipped?: string;
}

const BIN = fileURLToPath(new URL('../../packages/cli/bin/tool-search.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

export const CLI_COMMANDS: readonly (readonly string[])[] = [
  ['--help'],
  ['tols', 'list'],
  ['tools', '--help'],
  ['tools', 'list'],
];

/**
 * Servers, timed from spawn to the line that prints their URL (then Ctrl-C): what every user start, and every test that
 * spawns one, pays before the first request. Their CPU is the server process's own at that moment.
 */
export const SERVER_COMMANDS: readonly (readonly string[])[] = [
  ['gateway', '--provider-mode', 'mock-openai'],
  ['serve', 'mcp', '--http', '0'],
];
const LISTENING = 'http://127.0.0.1:';

/**
 * `runs` measured pairs per command (`commands`, default all of them). `warmUp` (default on) first runs one unmeasured
 * pair per command to warm the file cache; the CI smoke, which checks exit codes and that the figures exist, not what
 * they are, leaves it out.
 */
export async function measureCliStartup(
  runs: number,
  {
    warmUp = true,
    commands = [...CLI_COMMANDS, ...SERVER_COMMANDS],
  }: { readonly warmUp?: boolean; readonly commands?: readonly (readonly string[])[] } = {},
): Promise<CliStartupResult> {
  if (!existsSync(BUILT)) return { nodeMs: 0, rows: [], skipped: 'packages/cli is not built (npm run build)' };
  const cwd = mkdtempSync(join(tmpdir(), 'bench-cli-')); // no tool-search.json: the demo catalog
  const before = loadavg()[0]!;
  const bare: number[] = [];
  const rows: CliStartupRow[] = [];
  for (const args of commands) {
    const server = SERVER_COMMANDS.includes(args);
    const times: number[] = [];
    const cpu: number[] = [];
    const nodeCpu: number[] = [];
    const ratios: number[] = [];
    let exitCode = 0;
    for (let i = warmUp ? 0 : 1; i < runs + 1; i++) {
      const node = await timed(['-e', '0'], cwd);
      const cli = await (server ? timedServer : timed)([BIN, ...args], cwd);
      if (i === 0) continue; // the first pair warms the file cache
      bare.push(node.ms);
      times.push(cli.ms);
      if (cli.cpuMs !== undefined && node.cpuMs !== undefined) {
        cpu.push(cli.cpuMs);
        nodeCpu.push(node.cpuMs);
      }
      ratios.push(cli.ms / node.ms);
      exitCode = cli.code;
    }
    const cpuFigures = cpu.length ? { cpuMs: median(cpu), nodeCpuMs: median(nodeCpu) } : {};
    rows.push({
      command: `tool-search ${args.join(' ')}${server ? ' (until listening)' : ''}`,
      medianMs: median(times),
      ...cpuFigures,
      ratioToNode: median(ratios),
      exitCode,
    });
  }
  return { nodeMs: median(bare), rows, load: { before: round(before), after: round(loadavg()[0]!) } };
}

function round(load: number): number {
  return Math.round(load * 100) / 100;
}

function timed(args: readonly string[], cwd: string): Promise<{ ms: number; cpuMs?: number; code: number }> {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuAfter = childrenCpuMs();
      // Spawned one at a time, so the children's total grows by exactly this child's CPU time.
      resolve({
        ms,
        ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuMs: cpuAfter - cpuBefore } : {}),
        code: code ?? -1,
      });
    });
  });
}

/** Spawn to the printed URL, the server's CPU time then (its own /proc stat), then Ctrl-C and its exit code. */
function timedServer(args: readonly string[], cwd: string): Promise<{ ms: number; cpuMs?: number; code: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    let listening: { ms: number; cpuMs?: number } | undefined;
    const seen = (chunk: Buffer) => {
      printed += chunk.toString();
      if (listening || !printed.includes(LISTENING)) return;
      const cpuMs = child.pid === undefined ? undefined : processCpuMs(child.pid);
      listening = { ms: Number(process.hrtime.bigint() - started) / 1e6, ...(cpuMs !== undefined ? { cpuMs } : {}) };
      child.kill('SIGINT');
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('error', reject);
    child.once('close', (code) => {
      if (!listening)
        reject(new Error(`tool-search ${args.slice(1).join(' ')} ended (${code}) before listening: ${printed}`));
      else resolve({ ...listening, code: code ?? -1 });
    });
  });
}

/** CPU time (user + system) of a running process: utime and stime, fields 14 and 15 of stat(5). */
export function processCpuMs(pid: number): number | undefined {
  return statTicksMs(`/proc/${pid}/stat`, 14);
}

/** CPU time (user + system) of this process's waited-for children so far: cutime and cstime, fields 16 and 17. */
function childrenCpuMs(): number | undefined {
  return statTicksMs('/proc/self/stat', 16);
}

/** Field `field` plus the one after it of a /proc stat file, in ms (Linux; 10 ms ticks); undefined elsewhere. */
function statTicksMs(file: string, field: number): number | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    // The fields after the command name (which may hold spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[field - 3]) + Number(fields[field - 2]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}
