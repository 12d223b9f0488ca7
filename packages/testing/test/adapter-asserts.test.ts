// The adapters' shared assertions must fail when the turn is wrong, or three e2e tests would prove nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionFileName } from '@tool-search/session-log';
import { assertDeferredEchoTurn, assertDeniedNeverFound, logDir } from '../src/index.js';

const request = (...names: string[]) => ({
  path: '/v1/chat/completions',
  body: { tools: names.map((name) => ({ type: 'function', function: { name } })) },
});
const entry = (type: string, extra: Record<string, unknown>) =>
  JSON.stringify({ ts: 't', type, runId: 'r', sessionId: 's', ...extra });

function logWith(lines: string[]): string {
  const dir = logDir();
  writeFileSync(join(dir, sessionFileName('s')), `${lines.join('\n')}\n`);
  return dir;
}

const GOOD_LOG = [
  entry('search', { queries: ['echo'], hits: ['mcp:everything:echo'] }),
  entry('tool-call', { toolId: 'mcp:everything:echo', status: 'ok', searchRank: 1 }),
  entry('run-end', { searches: 1, describes: 0, calls: 1 }),
];

describe('assertDeferredEchoTurn', () => {
  it('passes the documented turn and fails each way it can go wrong', async () => {
    const dir = logWith(GOOD_LOG);
    await expect(
      assertDeferredEchoTurn([request('tool_search'), request('tool_search', 'echo')], dir, 's'),
    ).resolves.toHaveLength(3);
    // echo offered before the search found it
    await expect(assertDeferredEchoTurn([request('tool_search', 'echo'), request('echo')], dir, 's')).rejects.toThrow(
      /does not offer echo/,
    );
    // the denied tool offered
    await expect(
      assertDeferredEchoTurn([request('tool_search'), request('echo', 'get-env')], dir, 's'),
    ).rejects.toThrow(/get-env/);
    // the call failed
    const failed = logWith([
      GOOD_LOG[0]!,
      entry('tool-call', { toolId: 'mcp:everything:echo', status: 'error', searchRank: 1 }),
      GOOD_LOG[2]!,
    ]);
    await expect(assertDeferredEchoTurn([request('tool_search'), request('echo')], failed, 's')).rejects.toThrow(
      /the logged call/,
    );
  });
});

describe('assertDeniedNeverFound', () => {
  it('fails when the search found the denied tool', async () => {
    await expect(assertDeniedNeverFound([request('tool_search')], logWith(GOOD_LOG), 's')).resolves.toBeUndefined();
    const found = logWith([entry('search', { queries: ['env'], hits: ['mcp:everything:get-env'] })]);
    await expect(assertDeniedNeverFound([request('tool_search')], found, 's')).rejects.toThrow(/did not find/);
  });
});
