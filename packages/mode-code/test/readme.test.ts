import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { runCode, SANDBOX_KINDS } from '../src/index.js';
import { fakeSourcePlugin, makeRun } from './fixtures.js';

// The root README's code-mode example runs word for word in the sandbox.
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const example = /## Code mode in one example[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

let run: Run;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ run, close } = await makeRun([fakeSourcePlugin()]));
});
afterAll(() => close());

describe('the root README code-mode example', () => {
  it('is there and calls search, describe and call', () => {
    expect(example).toMatch(
      /openclaw\.tools\.search\("create a GitHub issue"\)[\s\S]*describe\(hits\[0\]\.id\)[\s\S]*call\(tool\.id/,
    );
  });

  it.each(SANDBOX_KINDS)('runs verbatim on the %s backend and returns the tool result', async (sandbox) => {
    const result = await runCode(run, example, { codeTimeoutMs: 5000, sandbox });
    expect(result).toMatchObject({
      ok: true,
      value: { content: [{ type: 'text', text: expect.stringContaining('FAKE_TOOL_OK create_github_issue') }] },
    });
  });
});
