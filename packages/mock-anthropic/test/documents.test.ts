/** `document` content blocks (PDF as base64, plain text) as the Messages API takes them, sent by the official client. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { tinyPdf } from '@tool-search/mock-openai';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';

let mock: MockAnthropic;
let client: Anthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
  client = new Anthropic({ baseURL: mock.url, apiKey: 'test', maxRetries: 0 });
});
afterAll(() => mock.close());

const ask = (content: Anthropic.ContentBlockParam[]) =>
  client.messages.create({ model: 'mock-claude', max_tokens: 256, messages: [{ role: 'user', content }] });
const textOf = (message: Anthropic.Message) =>
  message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');

describe('document blocks', () => {
  it('answers a base64 PDF document with its pages and text', async () => {
    const pdf = tinyPdf(['Invoice B total 99 EUR', 'Page two of B'], true);
    const message = await ask([
      {
        type: 'document',
        title: 'b.pdf',
        source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
      },
      { type: 'text', text: 'Total?' },
    ]);
    expect(textOf(message)).toBe(
      `Mock document: document 1: b.pdf, ${pdf.length} bytes, 2 pages: [1] "Invoice B total 99 EUR" [2] "Page two of B". Prompt: Total?`,
    );
  });

  it.each([
    ['another media type', { type: 'base64', media_type: 'image/png', data: tinyPdf(['x']).toString('base64') }],
    ['data that is not base64', { type: 'base64', media_type: 'application/pdf', data: '%PDF-1.4 not base64!' }],
    [
      'bytes that are not a PDF',
      { type: 'base64', media_type: 'application/pdf', data: Buffer.from('hello').toString('base64') },
    ],
    ['an unknown source type', { type: 'pdf', data: 'x' }],
    ['a text source without text', { type: 'text', media_type: 'text/plain' }],
  ])('refuses a document with %s (400 invalid_request_error)', async (_case, source) => {
    await expect(ask([{ type: 'document', source } as never, { type: 'text', text: 'x' }])).rejects.toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error' } },
    });
  });

  it('refuses a document block in an assistant message', async () => {
    const pdf = tinyPdf(['x']).toString('base64');
    const sent = client.messages.create({
      model: 'mock-claude',
      max_tokens: 16,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } } as never,
          ],
        },
        { role: 'user', content: 'x' },
      ],
    });
    await expect(sent).rejects.toMatchObject({ status: 400 });
  });
});
