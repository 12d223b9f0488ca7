/**
 * No server process outlives `kernel.close()`, however it was launched: a
 * server that never answers `initialize` and ignores SIGTERM, the same behind
 * `sh -c` and `npm exec`, and the grandchild it starts. `close()` returns only
 * once the whole process group is gone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { mcpPlugin, type McpStdioServerConfig } from '../src/index.js';
import { FIXTURE_PATH, isAlive } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'plugin-mcp-pgroup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const direct = `${quote(process.execPath)} ${quote(FIXTURE_PATH)} stubborn`;

const launches: Record<string, (pidFile: string) => McpStdioServerConfig> = {
  direct: (pidFile) => ({
    command: process.execPath,
    args: [FIXTURE_PATH, 'stubborn'],
    env: { FIXTURE_PID_FILE: pidFile },
  }),
  'sh -c': (pidFile) => ({ command: 'sh', args: ['-c', `${direct}; echo done`], env: { FIXTURE_PID_FILE: pidFile } }),
  'npm exec': (pidFile) => ({
    command: 'npm',
    args: ['exec', '--yes', '--offline', '--', 'sh', '-c', direct],
    env: { FIXTURE_PID_FILE: pidFile, npm_config_update_notifier: 'false' },
  }),
};

describe.each(Object.keys(launches))('a stubborn server launched %s', (launch) => {
  it('is ended with its whole process group by kernel.close(), grandchild included', async () => {
    const pidFile = join(dir, `${launch.replace(/\W/g, '_')}.pids`);
    const plugin = mcpPlugin({
      connectTimeoutMs: 6_000,
      shutdownGraceMs: 300,
      servers: { stubborn: launches[launch]!(pidFile) },
    });
    const kernel = createKernel({ plugins: [plugin] });
    const listing = kernel.createRun();
    const pids = await waitForPids(pidFile);
    const leader = plugin.servers()[0]?.pids[0];
    expect(pids.every(isAlive)).toBe(true);
    // Closed while the server is still being waited for: close() must not return before the group is gone.
    await kernel.close();
    expect([leader, ...pids].filter((pid) => pid !== undefined && isAlive(pid))).toEqual([]);
    const run = await listing;
    expect(run.diagnostics.map((d) => d.details?.server)).toContain('stubborn');
  }, 30_000);
});

describe('a stubborn server that timed out', () => {
  it('is ended (TERM, then KILL) once its connect deadline passes, before any close()', async () => {
    const pidFile = join(dir, 'timeout.pids');
    const plugin = mcpPlugin({
      connectTimeoutMs: 1_500,
      shutdownGraceMs: 200,
      servers: { stubborn: launches.direct!(pidFile) },
    });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const run = await kernel.createRun();
      expect(run.diagnostics).toContainEqual(
        expect.objectContaining({ code: 'MCP_SERVER_FAILED', details: { server: 'stubborn', reason: 'timeout' } }),
      );
      const pids = await waitForPids(pidFile);
      await expect.poll(() => pids.filter(isAlive), { timeout: 10_000 }).toEqual([]);
    } finally {
      await kernel.close();
    }
  }, 30_000);
});

async function waitForPids(file: string): Promise<number[]> {
  let text = '';
  await expect
    .poll(
      () => {
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          text = '';
        }
        return text.split(' ').length;
      },
      { timeout: 15_000 },
    )
    .toBe(2);
  return text.split(' ').map(Number);
}
