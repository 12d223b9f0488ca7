/**
 * PDF input in the documented wire formats: Chat Completions `file` parts and Responses `input_file` parts with
 * `file_data` as a base64 data URL, sent by the official client; malformed parts get a 400, as the API answers.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, startMockOpenAI, tinyPdf, type MockOpenAI } from '@tool-search/mock-openai';

const dataUrl = (bytes: Buffer, type = 'application/pdf') => `data:${type};base64,${bytes.toString('base64')}`;

let mock: MockOpenAI;
let client: OpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ baseURL: mock.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => mock.close());

describe('PDF input (file / input_file parts)', () => {
  it('reads the pages and text of a PDF, deflated or not', () => {
    expect(readPdf(tinyPdf(['Invoice (A) 420', 'Page two']))).toEqual(['Invoice (A) 420', 'Page two']);
    expect(readPdf(tinyPdf(['Compressed page'], true))).toEqual(['Compressed page']);
  });

  it('Chat Completions: answers a file part with what the PDF holds, page by page', async () => {
    const pdf = tinyPdf(['Invoice A total 420 EUR', 'Page two of A'], true);
    const res = await client.chat.completions.create({
      model: 'mock-tool-search',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'a.pdf', file_data: dataUrl(pdf) } },
            { type: 'text', text: 'Total?' },
          ],
        },
      ],
    });
    expect(res.choices[0]?.message.content).toBe(
      `Mock document: document 1: a.pdf, ${pdf.length} bytes, 2 pages: [1] "Invoice A total 420 EUR" [2] "Page two of A". Prompt: Total?`,
    );
  });

  it('Responses API: answers an input_file part the same way', async () => {
    const pdf = tinyPdf(['Only page']);
    const res = await client.responses.create({
      model: 'mock-tool-search',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_file', filename: 'one.pdf', file_data: dataUrl(pdf) },
            { type: 'input_text', text: 'Read it' },
          ],
        },
      ],
    });
    expect(res.output_text).toBe(
      `Mock document: document 1: one.pdf, ${pdf.length} bytes, 1 pages: [1] "Only page". Prompt: Read it`,
    );
  });

  it.each([
    ['no file_data or file_id', { filename: 'a.pdf' }],
    ['a file_data that is not a data URL', { filename: 'a.pdf', file_data: 'JVBERi0=' }],
    ['another media type', { filename: 'a.txt', file_data: dataUrl(Buffer.from('%PDF-1.4 x'), 'text/plain') }],
    ['bytes that are not a PDF', { filename: 'a.pdf', file_data: dataUrl(Buffer.from('hello')) }],
    ['an unknown file_id', { file_id: 'file-nope' }],
  ])('refuses a file part with %s (400 invalid_request_error)', async (_case, file) => {
    const sent = client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'file', file } as never, { type: 'text', text: 'x' }] }],
    });
    await expect(sent).rejects.toMatchObject({ status: 400, code: 'invalid_file', type: 'invalid_request_error' });
  });

  it('refuses a malformed input_file part on the Responses API', async () => {
    const sent = client.responses.create({
      model: 'm',
      input: [
        { role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: dataUrl(Buffer.from('nope')) }] },
      ],
    });
    await expect(sent).rejects.toMatchObject({ status: 400, code: 'invalid_file' });
  });
});
