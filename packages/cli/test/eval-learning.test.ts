/**
 * `tool-search eval --from-logs` on logs a real CLI run wrote: `code run` searches and calls through the code
 * sandbox while the preset's telemetry writes the session log; eval then shows each logged call's rank without and
 * with the learned signal. Missing and garbled logs fail with a typed error and a non-zero exit, JSON under --json.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEARNING_QUERY, LEARNING_TARGET, learningCatalog } from '@tool-search/testing';
import { cli, folder } from './helpers.js';

const QUERY = LEARNING_QUERY;
const TARGET = LEARNING_TARGET;
const billing = learningCatalog();

interface LearningJson {
  options: { train: string; scope: string };
  summary: {
    calls: number;
    before: Record<string, number>;
    after: Record<string, number>;
    improved: number;
    worsened: number;
  };
  calls: { query: string; tool: string; loggedRank: number | null; before: number | null; after: number | null }[];
}

/** Three sessions of `tool-search code run` that search and then call the sixth hit, logged by the preset's telemetry. */
async function loggedSessions(): Promise<{ cwd: string; logs: string }> {
  const logs = mkdtempSync(join(tmpdir(), 'eval-learning-logs-'));
  const cwd = folder({
    'tool-search.json': JSON.stringify({
      plugins: {},
      session: { logDir: logs },
      tools: { toolSearch: { mode: 'code', learning: false } },
    }),
  });
  const code = `const hits = await openclaw.tools.search(${JSON.stringify(QUERY)}); await openclaw.tools.call(${JSON.stringify(TARGET)}, {}); return hits.map((hit) => hit.id);`;
  for (let i = 0; i < 3; i++) {
    const run = await cli(['code', 'run', '--eval', code, '--json'], cwd, { plugins: [billing] });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect((JSON.parse(run.stdout) as { value: string[] }).value.indexOf(TARGET) + 1).toBe(6);
  }
  return { cwd, logs };
}

describe('tool-search eval --from-logs: the learned signal on a real log', () => {
  it('shows each call rank without and with the signal, trained on earlier calls or on all others', async () => {
    const { cwd, logs } = await loggedSessions();
    const earlier = await cli(['eval', '--from-logs', logs, '--json'], cwd, { plugins: [billing] });
    expect(earlier.code, earlier.stderr).toBe(0);
    const learned = (JSON.parse(earlier.stdout) as { learning: LearningJson }).learning;
    expect(learned.options).toMatchObject({ train: 'earlier', scope: 'agent' });
    // Three calls of the sixth hit: the first two have fewer than two earlier calls to learn from, the third lifts it.
    expect(learned.calls.map((call) => [call.loggedRank, call.before, call.after])).toEqual([
      [6, 6, 6],
      [6, 6, 6],
      [6, 6, 1],
    ]);
    expect(learned.summary).toMatchObject({
      calls: 3,
      improved: 1,
      worsened: 0,
      before: { hitAt1: 0 },
      after: { hitAt1: 0.333 },
    });

    const others = await cli(['eval', '--from-logs', logs, '--train', 'others', '--json'], cwd, { plugins: [billing] });
    expect((JSON.parse(others.stdout) as { learning: LearningJson }).learning.summary).toMatchObject({
      calls: 3,
      improved: 3,
      after: { hitAt1: 1, hitAt5: 1, mrr: 1 },
    });

    // One file works as well as the folder (eval's own runs log too: pick a code session's).
    const file = readdirSync(logs)
      .map((name) => join(logs, name))
      .find((path) => readFileSync(path, 'utf8').includes('"type":"tool-call"'))!;
    const single = await cli(['eval', '--from-logs', file, '--json'], cwd, { plugins: [billing] });
    expect(single.code, single.stderr).toBe(0);
    expect((JSON.parse(single.stdout) as { learning: LearningJson }).learning.summary.calls).toBeGreaterThan(0);

    // The text output says it in one line, and lists the calls that moved.
    const text = await cli(['eval', '--from-logs', logs, '--train', 'others'], cwd, { plugins: [billing] });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/3 logged calls after a search: Hit@1 0\.000 → 1\.000/);
    expect(text.stdout).toContain(`"${QUERY}" → ${TARGET}: rank 6 → rank 1`);
  }, 120_000);

  it('fails with a typed error and a non-zero exit on a missing or garbled log, as JSON under --json', async () => {
    const cwd = folder({ 'tool-search.json': JSON.stringify({ plugins: {} }) });
    const missing = await cli(['eval', '--from-logs', join(cwd, 'no-such-logs'), '--json'], cwd, {
      plugins: [billing],
    });
    expect(missing.code).toBe(1);
    expect((JSON.parse(missing.stdout) as { error: { code: string } }).error.code).toBe('CLI_INPUT_INVALID');

    const garbled = join(cwd, 'garbled.jsonl');
    writeFileSync(garbled, 'this is not a session log\n{"half": "an entry"\n{"type":"search"}\n');
    const bad = await cli(['eval', '--from-logs', garbled, '--json'], cwd, { plugins: [billing] });
    expect(bad.code).not.toBe(0);
    expect((JSON.parse(bad.stdout) as { error: { code: string } }).error.code).toBe('SESSION_LOG_INVALID');
    const badText = await cli(['eval', '--from-logs', garbled], cwd, { plugins: [billing] });
    expect(badText.code).not.toBe(0);
    expect(badText.stderr).toContain('SESSION_LOG_INVALID');

    const wrongTrain = await cli(['eval', '--from-logs', garbled, '--train', 'later', '--json'], cwd, {
      plugins: [billing],
    });
    expect(wrongTrain.code).toBe(1);
    expect((JSON.parse(wrongTrain.stdout) as { error: { code: string } }).error.code).toBe('CLI_INPUT_INVALID');
  }, 60_000);
});
