/**
 * Documents that run: every shell block of every README is a test. A block tagged `sh runnable` runs with bash
 * (`set -euo pipefail`) in a scratch folder where `tool-search` and `npx tool-search` are this checkout's built CLI;
 * `sh no-run` opts out on purpose (the text says why); an untagged block may only install packages. The README's two
 * commands are what `.ci/run` runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installOnly, shellBlocks } from '../../scripts/readme-blocks.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'packages/cli/bin/tool-search.js');
const built = existsSync(join(root, 'packages/cli/dist/bin.js'));
const blocks = shellBlocks(root);
const runnable = blocks.filter((b) => b.tags.includes('runnable'));
const has = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;

if (!built)
  console.warn('skipping the runnable README blocks: packages/cli/dist/bin.js is missing (run npm run build)');

/** A scratch folder where `tool-search` (PATH) and `npx tool-search` (node_modules) are this checkout's CLI. */
function scratch(): { cwd: string; path: string } {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'readme-block-')));
  const bin = join(cwd, '.bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'tool-search'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`,
  );
  chmodSync(join(bin, 'tool-search'), 0o755);
  symlinkSync(join(root, 'node_modules'), join(cwd, 'node_modules'));
  return { cwd, path: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
}

/** Processes still running in the block's scratch folder (a server it started and did not stop). */
function runningIn(cwd: string): string[] {
  if (!existsSync('/proc/self/cwd')) return [];
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const dir = readlinkSync(`/proc/${pid}/cwd`);
        return dir === cwd || dir.startsWith(`${cwd}/`);
      } catch {
        return false; // gone, a zombie, or not ours to read
      }
    })
    .map((pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`);
}

/** The ports a block serves on (`--port 8787`, `localhost:8788`), port 0 aside. */
function portsOf(code: string): number[] {
  const ports = [...code.matchAll(/(?:--port |localhost:|127\.0\.0\.1:)(\d+)/g)].map((m) => Number(m[1]));
  return [...new Set(ports)].filter((port) => port > 0);
}

function listening(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}

/** What a block left behind once it ended: processes in its folder, ports still served. Waits for ones stopping. */
async function leftovers(cwd: string, code: string): Promise<string[]> {
  const found = async () =>
    [
      ...runningIn(cwd),
      ...(await Promise.all(portsOf(code).map(async (port) => ((await listening(port)) ? `port ${port}` : '')))),
    ].filter(Boolean);
  // A process it signalled may still be exiting: give that a moment, then report what stays.
  for (let i = 0; i < 100; i++) {
    const now = await found();
    if (now.length === 0) return now;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return found();
}

function runBlock(code: string): Promise<{ code: number | null; output: string; left: string[] }> {
  const { cwd, path } = scratch();
  return new Promise((done) => {
    // Its own process group, so whatever the block leaves running (a server it forgot to stop) is stopped with it.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', code], {
      cwd,
      env: { ...process.env, PATH: path },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 240_000);
    // On exit, not close: a server the block started in the background may still hold the output pipes open.
    child.on('exit', async (exit) => {
      clearTimeout(timer);
      // What the block left running is found before the group is stopped (issue 41: `kill %1 %2` stopped only the
      // npx wrappers, and the gateways went on serving).
      const left = await leftovers(cwd, code);
      // Stopped here too: one in a process group of its own (job control) would outlive the group kill below.
      for (const entry of left.filter((line) => /^\d+:/.test(line))) {
        try {
          process.kill(Number.parseInt(entry, 10), 'SIGTERM');
        } catch {
          // it exited meanwhile
        }
      }
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // the group is already gone
      }
      setTimeout(() => done({ code: exit, output, left }), 200);
    });
  });
}

describe('README shell blocks', () => {
  it('each is runnable, no-run on purpose, or only installs packages', () => {
    const unmarked = blocks.filter(
      (b) => !b.tags.includes('runnable') && !b.tags.includes('no-run') && !installOnly(b.code),
    );
    expect(unmarked.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    expect(runnable.length).toBeGreaterThanOrEqual(3);
  });

  it('.ci/run runs exactly the two commands at the top of the root README', () => {
    const first = blocks.find((b) => b.file === 'README.md')!;
    const commands = first.code.trim().split('\n');
    expect(commands).toHaveLength(2);
    const ci = readFileSync(join(root, '.ci/run'), 'utf8').split('\n');
    for (const command of commands) expect(ci).toContain(command);
  });

  for (const block of runnable) {
    const missing = block.needs.filter((binary) => !has(binary));
    if (missing.length)
      console.warn(
        `skipping ${block.file}:${block.line}: ${missing.join(', ')} not installed (apt-get install -y redis-server)`,
      );
    // Each block runs in its own scratch folder and process group, so the blocks run at once (the CLI block alone is a
    // minute of one-after-another CLI starts on a loaded machine; the others wait on servers meanwhile).
    it.skipIf(!built || missing.length > 0)(
      `${block.file}:${block.line} runs as written`,
      { timeout: 300_000, concurrent: true },
      async () => {
        const { code, output, left } = await runBlock(block.code);
        expect(code, output.slice(-3000)).toBe(0);
        expect(output).not.toMatch(/TOOL_ARGUMENTS_INVALID|did not succeed/);
        expect(left, 'nothing the block started is left running or listening').toEqual([]);
      },
    );
  }
});
