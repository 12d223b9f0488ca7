// apply_patch is listed only for OpenAI models, as OpenClaw's Tools document says; tools.exec.applyPatch.allowModels
// names the models that get it instead.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type RunRequest } from '@tool-search/kernel';
import { fsPlugin, type FsPluginOptions } from '@tool-search/plugin-fs';

async function listed(applyPatch: FsPluginOptions['applyPatch'], request: RunRequest) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'fs-patch-models-')));
  const kernel = createKernel({ plugins: [fsPlugin({ workspace, applyPatch })] });
  const run = await kernel.createRun(request);
  const result = {
    patch: run.tool('apply_patch') !== undefined,
    read: run.tool('read') !== undefined,
    diagnostics: run.diagnostics,
  };
  await kernel.close();
  return result;
}

describe('apply_patch listed only for OpenAI models', () => {
  it('an OpenAI model gets apply_patch', async () => {
    expect((await listed({ enabled: true }, { provider: 'openai', model: 'gpt-5.2' })).patch).toBe(true);
    expect((await listed({ enabled: true }, { provider: 'openai-codex', model: 'gpt-5.3-codex' })).patch).toBe(true);
  });

  it("another provider's model does not, and a diagnostic says why; the other file tools stay", async () => {
    const result = await listed({ enabled: true }, { provider: 'anthropic', model: 'claude-opus-4-6' });
    expect(result).toMatchObject({ patch: false, read: true });
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_NOT_CONFIGURED, toolId: 'core:core:apply_patch' }),
    );
  });

  it('a run that names no provider keeps it (nothing to go by); disabled, nobody gets it', async () => {
    expect((await listed({ enabled: true }, {})).patch).toBe(true);
    expect((await listed({ enabled: false }, { provider: 'openai', model: 'gpt-5.2' })).patch).toBe(false);
  });

  it('allowModels is configurable: it names the models (bare, provider/model, or *) and replaces the OpenAI rule', async () => {
    expect(
      (
        await listed(
          { enabled: true, allowModels: ['claude-opus-4-6'] },
          { provider: 'anthropic', model: 'claude-opus-4-6' },
        )
      ).patch,
    ).toBe(true);
    expect(
      (
        await listed(
          { enabled: true, allowModels: ['anthropic/claude-opus-4-6'] },
          { provider: 'anthropic', model: 'claude-opus-4-6' },
        )
      ).patch,
    ).toBe(true);
    expect(
      (await listed({ enabled: true, allowModels: ['*'] }, { provider: 'google', model: 'gemini-3-pro' })).patch,
    ).toBe(true);
    expect(
      (await listed({ enabled: true, allowModels: ['gpt-5.2'] }, { provider: 'openai', model: 'gpt-5-mini' })).patch,
    ).toBe(false);
    expect((await listed({ enabled: true, allowModels: ['gpt-5.2'] }, {})).patch).toBe(false);
  });
});
