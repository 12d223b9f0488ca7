import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel, silentLogger, type RunEvent } from '@tool-search/kernel';
import {
  providerRequestEvent,
  readSessionLog,
  sessionLogEntries,
  summarizeSession,
  telemetryPlugin,
  type SessionLogEntry,
} from '@tool-search/telemetry';
import { catalogSource, kernelWith, openAIBody, tempDir } from './helpers.js';
import { TelemetryErrors } from '../src/errors.js';

async function scriptedSession(dir: string, sessionId = 'session-1') {
  const telemetry = telemetryPlugin({ sessionLog: { dir } });
  const kernel = kernelWith(telemetry);
  const run = await kernel.createRun({ sessionId, agentId: 'agent-a', provider: 'openai', model: 'gpt-test' });
  run.emit(providerRequestEvent('tools', openAIBody));
  run.emit({ type: 'search', queries: ['alpha'], hits: ['plugin:fake:alpha'], origin: 'tool_call' });
  run.emit({ type: 'describe', toolId: 'plugin:fake:alpha', requested: 'alpha', origin: 'code' });
  await run.call('alpha', { q: 'x' }, { origin: 'tool_call' });
  await run.call('files_read', {}, { origin: 'code' });
  await run.call('beta', {}, { origin: 'direct' });
  await run.close();
  await kernel.close();
  return { telemetry, run, file: telemetry.sessionLogFile(sessionId)! };
}

describe('session log', () => {
  it('writes no file for a run that did nothing (issue 41: every CLI command wrote an empty log)', async () => {
    const dir = await tempDir();
    const telemetry = telemetryPlugin({ sessionLog: { dir } });
    const kernel = kernelWith(telemetry);
    const idle = await kernel.createRun({ sessionId: 'idle' });
    idle.emit({
      type: 'diagnostic',
      diagnostic: { code: 'X', level: 'warning', message: 'a warning alone is not a session' },
    } as never);
    await idle.close();
    const busy = await kernel.createRun({ sessionId: 'busy' });
    busy.emit({ type: 'search', queries: ['alpha'], hits: [], origin: 'tool_call' });
    await busy.close();
    await kernel.close();
    expect(await readdir(dir)).toEqual(['busy.jsonl']);
    expect((await readSessionLog(join(dir, 'busy.jsonl'))).map((entry) => entry.type)).toEqual([
      'run-start',
      'search',
      'run-end',
    ]);
    // The in-memory store still has the idle run (the inspect page and summaries read it).
    expect(telemetry.entries('idle').map((entry) => entry.type)).toContain('run-start');
  });

  it('writes one JSONL line per event, in order, to <dir>/<sessionId>.jsonl', async () => {
    const dir = await tempDir();
    const { file } = await scriptedSession(dir);
    expect(file).toBe(join(dir, 'session-1.jsonl'));
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const types = lines.map((line) => (JSON.parse(line) as SessionLogEntry).type);
    expect(types).toEqual([
      'run-start',
      'provider-request',
      'search',
      'describe',
      'tool-call',
      'tool-call',
      'tool-call',
      'run-end',
    ]);
  });

  it('stamps every entry with ts, type, runId and sessionId', async () => {
    const { file, run } = await scriptedSession(await tempDir());
    for (const entry of await readSessionLog(file)) {
      expect(entry).toMatchObject({
        ts: expect.any(String),
        type: expect.any(String),
        runId: run.info.runId,
        sessionId: 'session-1',
      });
    }
  });

  it('logs the catalog summary at run start', async () => {
    const { file } = await scriptedSession(await tempDir());
    const [start] = await readSessionLog(file);
    expect(start).toMatchObject({
      type: 'run-start',
      agentId: 'agent-a',
      model: 'gpt-test',
      catalog: { total: 4, bySource: { plugin: 2, mcp: 1, core: 1, client: 0 }, directOnly: 1 },
    });
  });

  it('logs calls made through tool_call and from code as their own entries with ids and sources', async () => {
    const { file } = await scriptedSession(await tempDir());
    const calls = (await readSessionLog(file)).filter((entry) => entry.type === 'tool-call');
    expect(calls).toMatchObject([
      { toolId: 'plugin:fake:alpha', source: 'plugin', origin: 'tool_call', status: 'ok' },
      { toolId: 'mcp:files:files_read', source: 'mcp', origin: 'code', status: 'ok' },
      { toolId: 'plugin:fake:beta', source: 'plugin', origin: 'direct', status: 'blocked', blockedBy: 'test-blocker' },
    ]);
  });

  it('logs provider requests with bytes, tokens and the tool names sent', async () => {
    const { file } = await scriptedSession(await tempDir());
    const request = (await readSessionLog(file)).find((entry) => entry.type === 'provider-request');
    const event = providerRequestEvent('tools', openAIBody);
    expect(request).toMatchObject({
      mode: 'tools',
      tools: ['tool_search'],
      bytes: { tools: event.toolsBytes, system: event.systemBytes, request: Buffer.byteLength(openAIBody) },
      tokens: { tools: expect.any(Number), system: 5, request: expect.any(Number) },
      tokenizer: 'o200k_base',
    });
  });

  it('ends with a run summary that counts searches, describes, calls and requests', async () => {
    const { file } = await scriptedSession(await tempDir());
    const entries = await readSessionLog(file);
    expect(entries.at(-1)).toMatchObject({
      type: 'run-end',
      searches: 1,
      describes: 1,
      calls: 3,
      requests: 1,
      requestBytes: Buffer.byteLength(openAIBody),
    });
  });

  it('summarizes a session file for the e2e', async () => {
    const { file } = await scriptedSession(await tempDir());
    const summary = summarizeSession(await readSessionLog(file));
    expect(summary).toMatchObject({
      runs: 1,
      searches: 1,
      describes: 1,
      calls: 3,
      requestBytes: Buffer.byteLength(openAIBody),
      tokens: expect.any(Number),
      catalog: { total: 4, bySource: { plugin: 2, mcp: 1, core: 1 } },
      exposedTools: ['tool_search'],
      toolsCalled: [
        { id: 'plugin:fake:alpha', source: 'plugin', origin: 'tool_call' },
        { id: 'mcp:files:files_read', source: 'mcp', origin: 'code' },
        { id: 'plugin:fake:beta', source: 'plugin', origin: 'direct', status: 'blocked' },
      ],
    });
    expect(summary.tokens).toBeGreaterThan(summary.toolsTokens + summary.systemTokens);
  });

  it('keeps a hostile session id inside the log directory', async () => {
    const dir = await tempDir();
    const { file } = await scriptedSession(dir, '../../escape/..\\x');
    expect(file.startsWith(`${dir}/`)).toBe(true);
    expect(await readdir(dir)).toEqual([file.slice(dir.length + 1)]);
    expect((await readSessionLog(file)).length).toBeGreaterThan(0);
  });

  it('gives distinct session ids distinct files even when they sanitize alike', async () => {
    const plugin = telemetryPlugin({ sessionLog: { dir: '/logs' } });
    expect(plugin.sessionLogFile('a/b')).not.toBe(plugin.sessionLogFile('a:b'));
  });

  it('logs events of other plugins as data', async () => {
    const written: SessionLogEntry[] = [];
    const kernel = kernelWith(
      telemetryPlugin({ tokenizer: false, sessionLog: { write: (entry) => void written.push(entry) } }),
    );
    const run = await kernel.createRun();
    run.emit({ type: 'loop-warning', toolId: 'plugin:fake:alpha', repeats: 3 } as unknown as RunEvent);
    await run.close();
    expect(written.find((entry) => entry.type === 'event')).toMatchObject({
      event: 'loop-warning',
      data: { toolId: 'plugin:fake:alpha', repeats: 3 },
    });
  });

  it('ignores a last line cut short by a crash', async () => {
    const file = join(await tempDir(), 's.jsonl');
    await writeFile(
      file,
      '{"ts":"t","type":"search","runId":"r","sessionId":"s","queries":[],"hits":[],"origin":"api"}\n{"ts":"t","ty',
    );
    expect(await readSessionLog(file)).toHaveLength(1);
  });

  it('refuses a file with a malformed line in the middle', async () => {
    const file = join(await tempDir(), 's.jsonl');
    await writeFile(file, 'not json\n{"ts":"t","type":"search","runId":"r","sessionId":"s"}\n');
    await expect(readSessionLog(file)).rejects.toMatchObject({
      code: TelemetryErrors.SESSION_LOG_INVALID,
      details: { line: 1 },
    });
  });

  it('streams a log larger than one read chunk, lines split across chunks, and names the bad line', async () => {
    const file = join(await tempDir(), 'big.jsonl');
    const line = (i: number) =>
      `{"ts":"t","type":"search","runId":"r${i}","sessionId":"s","queries":["${'q'.repeat(i % 97)}"],"hits":[],"origin":"api"}`;
    const lines = Array.from({ length: 5000 }, (_, i) => line(i));
    await writeFile(file, `${lines.join('\n')}\n`);
    const seen: string[] = [];
    for await (const entry of sessionLogEntries(file)) seen.push(entry.runId);
    expect(seen).toHaveLength(5000);
    expect(seen[4999]).toBe('r4999');
    // A bad line followed by a good one is refused with its own line number, wherever the chunks split.
    await writeFile(file, `${[...lines.slice(0, 3000), 'garbage', ...lines.slice(3000)].join('\n')}\n`);
    await expect(readSessionLog(file)).rejects.toMatchObject({
      code: TelemetryErrors.SESSION_LOG_INVALID,
      details: { line: 3001 },
    });
    // A complete bad last line (newline written) is refused too; only a cut-short write is forgiven.
    await writeFile(file, `${lines[0]}\nnot an entry\n`);
    await expect(readSessionLog(file)).rejects.toMatchObject({
      code: TelemetryErrors.SESSION_LOG_INVALID,
      details: { line: 2 },
    });
    // A line with no end in sight (a file that is not a log) is refused at 16 MB, not held whole in memory.
    await writeFile(file, `${lines[0]}\n"${'x'.repeat(17 * 1024 * 1024)}`);
    await expect(readSessionLog(file)).rejects.toMatchObject({
      code: TelemetryErrors.SESSION_LOG_INVALID,
      details: { line: 2 },
    });
  });

  it('accepts a custom writer and keeps the run going when it throws', async () => {
    const written: SessionLogEntry[] = [];
    const warnings: string[] = [];
    const telemetry = telemetryPlugin({
      sessionLog: {
        write(entry) {
          if (entry.type === 'tool-call') throw new Error('disk full');
          written.push(entry);
        },
      },
    });
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const kernel = createKernel({ plugins: [catalogSource, telemetry], logger });
    const run = await kernel.createRun();
    const outcome = await run.call('alpha', {});
    await run.call('alpha', {});
    await run.close();
    expect(outcome.status).toBe('ok');
    expect(written.map((entry) => entry.type)).toEqual(['run-start', 'run-end']);
    expect(warnings).toHaveLength(1);
  });
});
