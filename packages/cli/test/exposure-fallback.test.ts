/**
 * `exposure` and `tools explain` say what materializing the mode had to tell: a fallback and why. The mode-code
 * fallback itself (Node child → QuickJS) is proven in packages/mode-code/test/fallback-node.test.ts; here a plugin
 * reports through the same `ctx.diagnostic` of `materialize`, so the CLI's part is shown without breaking the Node
 * binary this worker's other files share.
 */
import { describe, expect, it } from 'vitest';
import type { AnyErrorCode, KernelPlugin } from '@tool-search/kernel';
import { cli, smallCatalog } from './helpers.js';

const NOTE = {
  code: 'SANDBOX_UNAVAILABLE' as AnyErrorCode,
  level: 'warning' as const,
  plugin: 'test-sandbox',
  message: 'code mode fell back from the process sandbox to quickjs: process: node: bad option: --permission',
};
const degraded: KernelPlugin = {
  name: 'test-sandbox',
  apply: ({ hooks }) =>
    hooks.materialize.for('code').tap((draft, ctx) => {
      ctx.diagnostic(NOTE);
      return draft;
    }),
};
const cwd = smallCatalog(3);
const codeMode = smallCatalog(3, 'tools: { toolSearch: { mode: "code" } }');

describe('exposure says how the mode materialized', () => {
  it('--json lists the diagnostics of materializing the mode', async () => {
    const { code, stdout, stderr } = await cli(['exposure', '--mode', 'code', '--json'], cwd, { plugins: [degraded] });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ mode: 'code', diagnostics: [{ ...NOTE, hook: 'materialize' }] });
  });

  it('the text names the fallback under the mode line', async () => {
    const { stdout } = await cli(['exposure', '--mode', 'code'], cwd, { plugins: [degraded] });
    expect(stdout).toContain(`mode: code\n  warning SANDBOX_UNAVAILABLE [test-sandbox]: ${NOTE.message}\n`);
  });

  it('nothing extra when nothing degraded', async () => {
    const { stdout } = await cli(['exposure', '--mode', 'tools', '--json'], cwd, { plugins: [degraded] });
    expect(JSON.parse(stdout).diagnostics).toEqual([]);
  });
});

describe('tools explain says how the applied mode runs', () => {
  it('--json carries the exposure as it materializes, with the fallback', async () => {
    const { code, stdout, stderr } = await cli(['tools', 'explain', 'read', '--json'], codeMode, {
      plugins: [degraded],
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).toolSearch).toMatchObject({
      mode: 'code',
      exposure: { mode: 'code', diagnostics: [expect.objectContaining({ code: 'SANDBOX_UNAVAILABLE' })] },
    });
  });

  it('the text adds the fallback after the mode line ', async () => {
    const { stdout } = await cli(['tools', 'explain', 'read'], codeMode, { plugins: [degraded] });
    expect(stdout).toMatch(
      /exposure mode code \(from [^)]*\)\n {2}warning SANDBOX_UNAVAILABLE \[test-sandbox\]: code mode fell back/,
    );
  });
});
