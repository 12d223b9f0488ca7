import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';
import { imagePlugin } from '@tool-search/plugin-image';

/** A real PNG: signature, IHDR, one IDAT of deflated RGB rows, IEND. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let mock: MockOpenAI;
let anthropic: MockAnthropic;
beforeAll(async () => {
  mock = await startMockOpenAI();
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  await anthropic.close();
});

async function call(workspace: string, args: Record<string, unknown>, maxBytesMb?: number): Promise<ToolCallOutcome> {
  const kernel = createKernel({
    plugins: [
      imagePlugin({
        workspace,
        model: 'mock-vision',
        baseURL: mock.url,
        apiKey: 'mock',
        ...(maxBytesMb ? { maxBytesMb } : {}),
      }),
    ],
  });
  const run = await kernel.createRun();
  try {
    return await run.call('image', args);
  } finally {
    await run.close();
    await kernel.close();
  }
}

describe('image', () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'image-')));
  writeFileSync(join(workspace, 'chart.png'), png(7, 5));
  writeFileSync(join(workspace, 'notes.png'), 'not an image at all');

  it('sends the workspace image and the prompt to the image model and returns its analysis', async () => {
    const before = mock.requests.length;
    const outcome = await call(workspace, { image: 'chart.png', prompt: 'What is plotted?' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { structuredContent: { image: 'chart.png', mime: 'image/png', model: 'mock-vision' } },
    });
    const text = outcome.status === 'ok' ? (outcome.result.structuredContent as { text: string }).text : '';
    expect(text).toBe(
      `Mock vision: image 1: image/png ${png(7, 5).length} bytes, 7x5 pixels. Prompt: What is plotted?`,
    );
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body as { model: string };
    expect(sent.model).toBe('mock-vision');
  });

  it('refuses what is not an image, too large, missing or outside the workspace, with codes', async () => {
    const code = (o: ToolCallOutcome) => (o.status === 'error' ? o.error.code : o.status);
    expect(code(await call(workspace, { image: 'notes.png' }))).toBe('IMAGE_UNREADABLE');
    expect(code(await call(workspace, { image: 'chart.png' }, 0.00001))).toBe('IMAGE_UNREADABLE');
    expect(code(await call(workspace, { image: 'missing.png' }))).toBe('FILE_NOT_FOUND');
    expect(code(await call(workspace, { image: '../etc/passwd' }))).toBe('PATH_OUTSIDE_WORKSPACE');
  });

  it('a provider failure is PROVIDER_FAILED', async () => {
    const kernel = createKernel({
      plugins: [imagePlugin({ workspace, model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' })],
    });
    const run = await kernel.createRun();
    const outcome = await run.call('image', { image: 'chart.png' });
    expect(outcome.status === 'error' && outcome.error.code).toBe('PROVIDER_FAILED');
    await kernel.close();
  });

  it('with an Anthropic provider, sends the image as a base64 image block over the Messages API', async () => {
    const before = anthropic.requests.length;
    const kernel = createKernel({
      plugins: [
        imagePlugin({
          workspace,
          kind: 'anthropic',
          model: 'mock-claude-vision',
          baseURL: anthropic.url,
          apiKey: 'mock',
        }),
      ],
    });
    const run = await kernel.createRun();
    const outcome = await run.call('image', { image: 'chart.png', prompt: 'Any text?' });
    await kernel.close();
    const text =
      outcome.status === 'ok' ? (outcome.result.structuredContent as { text: string }).text : JSON.stringify(outcome);
    expect(text).toBe(`Mock vision: image 1: image/png ${png(7, 5).length} bytes, 7x5 pixels. Prompt: Any text?`);
    const sent = anthropic.requests.slice(before).find((r) => r.path === '/v1/messages')!.body as {
      model: string;
      messages: { content: { type: string; source?: { media_type: string } }[] }[];
    };
    expect(sent.model).toBe('mock-claude-vision');
    expect(sent.messages[0]!.content.map((block) => block.type)).toEqual(['image', 'text']);
    expect(sent.messages[0]!.content[0]!.source?.media_type).toBe('image/png');
  });
});
