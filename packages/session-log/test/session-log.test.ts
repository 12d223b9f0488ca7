import { mkdtemp, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSessionLogWriter,
  readSessionLog,
  sessionFileName,
  sessionLogEntries,
  SessionLogErrors,
  type SessionLogEntry,
} from '@tool-search/session-log';

const entry = (sessionId: string, runId = 'r1'): SessionLogEntry => ({
  ts: '2026-01-01T00:00:00.000Z',
  type: 'describe',
  runId,
  sessionId,
  toolId: null,
  requested: 'x',
  origin: 'api',
});

describe('session log', () => {
  it('appends entries in order and reads them back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'session-log-'));
    const log = createSessionLogWriter({ dir });
    await log.write(entry('s1', 'r1'));
    await log.write(entry('s1', 'r2'));
    expect((await readSessionLog(log.pathFor('s1'))).map((e) => e.runId)).toEqual(['r1', 'r2']);
  });

  it('keeps a session id from naming a file outside the folder', () => {
    expect(sessionFileName('plain_id-1')).toBe('plain_id-1.jsonl');
    const odd = sessionFileName('../../etc/passwd');
    expect(odd).not.toContain('/');
    expect(odd).not.toBe(sessionFileName('../../etc/passwd2'));
  });

  it('ignores a cut-off last line and rejects any other line that is not an entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'session-log-'));
    const cut = join(dir, 'cut.jsonl');
    await writeFile(cut, `${JSON.stringify(entry('s'))}\n{"ts":`);
    expect(await readSessionLog(cut)).toHaveLength(1);
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, `not json\n${JSON.stringify(entry('s'))}\n`);
    await expect(readSessionLog(bad)).rejects.toMatchObject({
      code: SessionLogErrors.SESSION_LOG_INVALID,
      details: { line: 1 },
    });
  });

  it('reads only a regular file: a FIFO is refused, not waited on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'session-log-'));
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const read = async () => {
      for await (const _ of sessionLogEntries(fifo)) return;
    };
    await expect(read()).rejects.toMatchObject({ code: 'SESSION_LOG_NOT_A_FILE', details: { kind: 'fifo' } });
  });
});
