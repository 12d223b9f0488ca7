import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { startMockAnthropic } from '@tool-search/mock-anthropic';
import { createToolSearchKernel } from '@tool-search/preset';
import { PDFDocument, StandardFonts } from 'pdf-lib';

let kernel: Kernel | undefined;
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterEach(async () => kernel?.close());
afterAll(async () => mock.close());

const workspace = () => realpathSync(mkdtempSync(join(tmpdir(), 'preset-image-')));
// A GIF header is enough for the mock to read the size; the tool checks the magic bytes.
const GIF = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 4, 0, 3, 0, 0, 0, 0, 0x3b]);

describe('image under plugins.core', () => {
  it('is not listed without a provider', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      agents: { defaults: { imageModel: 'openai/gpt-4o' } },
    }));
    expect((await kernel.createRun()).tool('image')).toBeUndefined();
  });

  it('without agents.defaults.imageModel, the main model with the configured auth is the implicit image model', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'pic.gif'), GIF);
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: ws } },
      provider: { baseURL: mock.url, apiKey: 'k', model: 'mock-main' },
    }));
    const run = await kernel.createRun();
    expect(await run.call('image', { image: 'pic.gif' })).toMatchObject({
      status: 'ok',
      result: { structuredContent: { model: 'mock-main' } },
    });
    await kernel.close();
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: ws } },
      agents: { defaults: { model: { primary: 'openai/mock-agent-main' } } },
      provider: { baseURL: mock.url, apiKey: 'k', model: 'mock-main' },
    }));
    expect(await (await kernel.createRun()).call('image', { image: 'pic.gif' })).toMatchObject({
      status: 'ok',
      result: { structuredContent: { model: 'mock-agent-main' } },
    });
  });

  it("a main model of another provider is not taken as this provider's image model", async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      agents: { defaults: { model: 'anthropic/claude-x' } },
      provider: { baseURL: mock.url, apiKey: 'k', model: 'm' },
    }));
    expect((await kernel.createRun()).tool('image')).toBeUndefined();
  });

  it('is not listed with an imageModel but no provider key', async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: workspace() } },
      agents: { defaults: { imageModel: 'openai/gpt-4o' } },
      provider: { baseURL: mock.url, apiKeyEnv: 'NO_SUCH_KEY_VAR', model: 'm' },
    }));
    expect((await kernel.createRun()).tool('image')).toBeUndefined();
  });

  it('with imageModel and the provider, analyzes a workspace image through that model', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'pic.gif'), GIF);
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: ws } },
      agents: { defaults: { imageModel: { primary: 'openai/mock-vision' } } },
      provider: { baseURL: mock.url, apiKey: 'k', model: 'mock-model' },
    }));
    const run = await kernel.createRun();
    expect(run.tool('image')?.id).toBe('core:core:image');
    const outcome = await run.call('image', { image: 'pic.gif' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        structuredContent: {
          model: 'mock-vision',
          mime: 'image/gif',
          text: 'Mock vision: image 1: image/gif 14 bytes, 4x3 pixels. Prompt: Describe the image.',
        },
      },
    });
  });

  it('with an Anthropic provider, analyzes the image over the Messages API', async () => {
    const claude = await startMockAnthropic();
    try {
      const ws = workspace();
      writeFileSync(join(ws, 'pic.gif'), GIF);
      const config = {
        plugins: { core: { workspace: ws } },
        agents: { defaults: { imageModel: 'anthropic/mock-claude' } },
      };
      ({ kernel } = await createToolSearchKernel({
        ...config,
        provider: { kind: 'anthropic', baseURL: claude.url, apiKey: 'k', model: 'mock-claude' },
      }));
      const outcome = await (await kernel.createRun()).call('image', { image: 'pic.gif' });
      expect(outcome).toMatchObject({
        status: 'ok',
        result: {
          structuredContent: {
            model: 'mock-claude',
            text: 'Mock vision: image 1: image/gif 14 bytes, 4x3 pixels. Prompt: Describe the image.',
          },
        },
      });
      expect(claude.requests.some((r) => r.path === '/v1/messages')).toBe(true);
    } finally {
      await claude.close();
    }
  });
});

describe('pdf under plugins.core', () => {
  it('answers a prompt with agents.defaults.pdfModel on the configured provider', async () => {
    const ws = workspace();
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Quarterly revenue 12 MEUR', {
      x: 50,
      y: 700,
      size: 14,
      font: await doc.embedFont(StandardFonts.Helvetica),
    });
    writeFileSync(join(ws, 'q.pdf'), await doc.save());
    ({ kernel } = await createToolSearchKernel({
      plugins: { core: { workspace: ws } },
      agents: { defaults: { pdfModel: 'openai/mock-pdf' } },
      provider: { baseURL: mock.url, apiKey: 'k', model: 'mock-main' },
    }));
    const before = mock.requests.length;
    const outcome = await (await kernel.createRun()).call('pdf', { path: 'q.pdf', prompt: 'Revenue?' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { structuredContent: { model: 'mock-pdf', documents: [{ path: 'q.pdf', pagesRead: [1] }] } },
    });
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body as {
      model: string;
      messages: { content: string }[];
    };
    expect(sent.model).toBe('mock-pdf');
    expect(sent.messages[0]!.content).toContain('Quarterly revenue 12 MEUR');
  });
});
