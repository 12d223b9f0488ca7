/**
 * Issue 40: `eval --from-logs` reads only regular files, without blocking (a FIFO in the logs folder used to hang it),
 * streams a log line by line (a 600 MB log overflowed the stack through `push(...entries)`), and joins a long line
 * once (a 16 MB line was re-split per chunk, quadratically). No timing assertions: the tests simply must finish.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, constants, createWriteStream, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { queriesFromLogs } from '../src/commands/eval-logs.js';
import { cli, smallCatalog } from './helpers.js';

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
if (!HAS_MKFIFO) console.warn('skipping the FIFO eval test: mkfifo is missing (apt-get install -y coreutils)');

const fifos: string[] = [];
afterEach(() => {
  // A reader stuck opening a FIFO (the old behaviour) is released by a writer opening it; none waiting: ENXIO.
  for (const fifo of fifos.splice(0))
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader was waiting on it: nothing to release.
    }
});

const line = (type: string, runId: string, fields: Record<string, unknown>) =>
  `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', runId, sessionId: 's', type, ...fields })}\n`;
const pair = (runId: string, query: string, tool = 'core:core:read') =>
  line('search', runId, { queries: [query], hits: [tool] }) + line('tool-call', runId, { toolId: tool, status: 'ok' });

describe.skipIf(!HAS_MKFIFO)('eval --from-logs and special files', () => {
  it('skips a FIFO in the logs folder with a note on stderr, and --json still prints JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-fifo-'));
    writeFileSync(join(dir, 'a.jsonl'), pair('r1', 'read a text file from the workspace'));
    const fifo = join(dir, 'b.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    fifos.push(fifo);
    const { code, stdout, stderr } = await cli(['eval', '--from-logs', dir, '--json'], smallCatalog(20));
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { queries: { query: string }[] };
    expect(out.queries.map((q) => q.query)).toEqual(['read a text file from the workspace']);
    expect(stderr).toContain(`note: skipped ${fifo}`);
    expect(stderr).toContain('fifo');
  });

  it('a FIFO named directly is an input error, not a hang', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-fifo-'));
    const fifo = join(dir, 'direct.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    fifos.push(fifo);
    const { code, stderr } = await cli(['eval', '--from-logs', fifo, '--json'], smallCatalog(5));
    expect(code).toBe(1);
    expect(stderr).toContain('not a regular file');
  });
});

describe('eval --from-logs on large logs', () => {
  it('reads a log of 400,000 entries (200,000 searches a call followed) without a stack overflow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-big-'));
    const file = join(dir, 'big.jsonl');
    const out = createWriteStream(file);
    const PAIRS = 200_000; // more than one call's arguments can carry: push(...these) overflowed the stack
    for (let i = 0; i < PAIRS; i += 1000) {
      let block = '';
      for (let j = i; j < i + 1000; j++) block += pair(`r${j}`, `query ${j}`);
      if (!out.write(block)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const loaded = await queriesFromLogs(file);
    expect(loaded.scored).toHaveLength(PAIRS);
    expect(loaded.calls).toHaveLength(PAIRS);
    expect(loaded.scored[PAIRS - 1]).toMatchObject({ query: `query ${PAIRS - 1}`, relevant: ['core:core:read'] });
  }, 300_000);

  it('parses a 16 MB line (joined once, not re-split per chunk) and the entries around it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-long-'));
    const file = join(dir, 'long.jsonl');
    const filler = 'x'.repeat(16_000_000);
    writeFileSync(
      file,
      pair('r1', 'before the long line') +
        line('provider-request', 'r1', { body: filler }) +
        pair('r2', 'after the long line'),
    );
    const loaded = await queriesFromLogs(file);
    expect(loaded.scored.map((q) => q.query)).toEqual(['before the long line', 'after the long line']);
  }, 300_000);
});
