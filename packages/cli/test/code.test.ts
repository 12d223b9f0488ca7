import { describe, expect, it } from 'vitest';
import { cli, folder, smallCatalog } from './helpers.js';

const small = smallCatalog(3);

describe('code run', () => {
  it('runs --eval in the sandbox and prints { ok, value, logs, telemetry } with --json', async () => {
    const { code, stdout, stderr } = await cli(
      ['code', 'run', '--eval', 'console.log("hi"); return 1 + 2;', '--json'],
      small,
    );
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ ok: true, value: 3, logs: [{ text: 'hi' }] });
    expect(result).toHaveProperty('telemetry');
  });

  it('reaches the catalog through openclaw.tools like tool_search_code', async () => {
    const program = 'const r = await openclaw.tools.search("read a text file"); return r.map((h) => h.id);';
    const { code, stdout } = await cli(['code', 'run', '--eval', program, '--json'], small);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { value: string[] }).value).toContain('core:core:read');
  });

  it('runs a --file and prints the value', async () => {
    const cwd = folder({
      'tool-search.json': '{ plugins: { "fake-catalog": { tools: 1 } } }',
      'job.js': 'return "done";',
    });
    const { code, stdout } = await cli(['code', 'run', '--file', 'job.js'], cwd);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('done');
  });

  it('exits 1 with { ok: false, error } when the code throws', async () => {
    const { code, stdout } = await cli(['code', 'run', '--eval', 'throw new Error("boom")', '--json'], small);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'CODE_FAILED' } });
  });

  it('exits 2 without --file or --eval', async () => {
    expect((await cli(['code', 'run'], small)).code).toBe(2);
  });
});

describe('code run on the QuickJS backend (tools.toolSearch.sandbox)', () => {
  it('runs the documents\' headline example verbatim with sandbox: "quickjs"', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ plugins: { "fake-catalog": { tools: 3 } }, tools: { toolSearch: { sandbox: "quickjs" } } }',
    });
    const program =
      'const hits = await openclaw.tools.search("read a text file"); const tool = await openclaw.tools.describe(hits[0].id); return { id: tool.id, schema: typeof tool.inputSchema, process: typeof process, intl: typeof Intl };';
    const { code, stdout, stderr } = await cli(['code', 'run', '--eval', program, '--json'], cwd);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: true,
      value: { id: 'core:core:read', schema: 'object', process: 'undefined', intl: 'undefined' },
    }); // QuickJS has no Intl: the backend was QuickJS
  });
});
