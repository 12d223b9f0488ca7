/**
 * Issue 40: the session-log reader opens only regular files, without blocking (a FIFO would wait for a writer
 * forever), refuses a symlink when told not to follow one, and joins a long line once (linear, not re-split per chunk).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionLog, TelemetryErrors } from '@tool-search/telemetry';

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
if (!HAS_MKFIFO) console.warn('skipping the FIFO read test: mkfifo is missing (apt-get install -y coreutils)');

const entry = (type: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', runId: 'r', sessionId: 's', type, ...extra })}\n`;

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'ok',
    (error: { code?: string; details?: unknown }) => ({ code: error.code, details: error.details }),
  );
}

describe('reading a session log', () => {
  it.skipIf(!HAS_MKFIFO)(
    'refuses a FIFO at once with SESSION_LOG_NOT_A_FILE instead of waiting for a writer',
    async () => {
      const fifo = join(mkdtempSync(join(tmpdir(), 'log-fifo-')), 'a.jsonl');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      try {
        expect(await codeOf(readSessionLog(fifo))).toMatchObject({
          code: TelemetryErrors.SESSION_LOG_NOT_A_FILE,
          details: { kind: 'fifo' },
        });
      } finally {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)); // releases a reader stuck in open
        } catch {
          // No reader was waiting: nothing to release.
        }
      }
    },
  );

  it('refuses a folder, and a symlink when noFollow is set (followed otherwise)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-kinds-'));
    mkdirSync(join(dir, 'folder.jsonl'));
    writeFileSync(join(dir, 'real.jsonl'), entry('run-start'));
    symlinkSync(join(dir, 'real.jsonl'), join(dir, 'link.jsonl'));
    expect(await codeOf(readSessionLog(join(dir, 'folder.jsonl')))).toMatchObject({
      code: TelemetryErrors.SESSION_LOG_NOT_A_FILE,
    });
    expect(await codeOf(readSessionLog(join(dir, 'link.jsonl'), { noFollow: true }))).toMatchObject({
      code: TelemetryErrors.SESSION_LOG_NOT_A_FILE,
      details: { kind: 'symlink' },
    });
    expect(await readSessionLog(join(dir, 'link.jsonl'))).toHaveLength(1);
  });

  it('reads a 16 MB line split over many chunks, and still refuses a line over the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-long-'));
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, entry('a') + entry('b', { body: 'é'.repeat(8_000_000) }) + entry('c'));
    const entries = await readSessionLog(long);
    expect(entries.map((e) => e.type)).toEqual(['a', 'b', 'c']);
    expect((entries[1] as unknown as { body: string }).body).toHaveLength(8_000_000);
    const tooLong = join(dir, 'too-long.jsonl');
    writeFileSync(tooLong, entry('a', { body: 'x'.repeat(17 * 1024 * 1024) }));
    expect(await codeOf(readSessionLog(tooLong))).toMatchObject({ code: TelemetryErrors.SESSION_LOG_INVALID });
  }, 120_000);

  it('keeps a last line without its newline when it parses, and ignores it when it was cut short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-tail-'));
    writeFileSync(join(dir, 'whole.jsonl'), entry('a') + entry('b').trimEnd());
    writeFileSync(join(dir, 'cut.jsonl'), entry('a') + entry('b').slice(0, 20));
    expect((await readSessionLog(join(dir, 'whole.jsonl'))).map((e) => e.type)).toEqual(['a', 'b']);
    expect((await readSessionLog(join(dir, 'cut.jsonl'))).map((e) => e.type)).toEqual(['a']);
  });
});
