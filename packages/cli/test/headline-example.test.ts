/** The README's headline example ("Code mode in one example") runs as written on the built-in demo catalog. */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const EXAMPLE = `const hits = await openclaw.tools.search("create a GitHub issue");
const tool = await openclaw.tools.describe(hits[0].id);
return await openclaw.tools.call(tool.id, { title: "Crash on startup", body: "Steps to reproduce..." });`;

describe('the headline example on the demo catalog', () => {
  it('finds the GitHub-style create_issue first and calls it with title and body', async () => {
    const { code, stdout, stderr } = await cli(['code', 'run', '--eval', EXAMPLE, '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as { ok: boolean; value: unknown };
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result.value)).toContain(
      'FAKE_TOOL_OK create_issue {\\"title\\":\\"Crash on startup\\",\\"body\\":\\"Steps to reproduce...\\"}',
    );
  });

  it("the demo catalog's tools say they are fakes", async () => {
    const { stdout } = await cli(['tools', 'search', 'create a GitHub issue', '--json']);
    expect(stdout).toMatch(/Fake demo tool/);
  });
});
