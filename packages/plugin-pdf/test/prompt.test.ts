/**
 * pdf with several documents and a `prompt` answered by the configured model, against loopback servers speaking
 * the OpenAI Chat Completions and Anthropic Messages wire formats (through the official clients); text extraction
 * stays the fallback without a model or when the model fails.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Run } from '@tool-search/kernel';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { pdfPlugin, sendsPdf, type PdfPluginOptions } from '../src/index.js';

async function makePdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const line of lines) doc.addPage().drawText(line, { x: 50, y: 700, size: 14, font });
  return doc.save();
}

interface Seen {
  path: string;
  headers: Record<string, unknown>;
  body: { model: string; messages: { role: string; content: string }[] };
}
const seen: Seen[] = [];
let provider: Server;
let url: string;
let workspace: string;
let openai: MockOpenAI;
let anthropic: MockAnthropic;

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-prompt-')));
  writeFileSync(
    join(workspace, 'a.pdf'),
    await makePdf(['Invoice A total 420 EUR', 'Page two of A', 'Page three of A']),
  );
  writeFileSync(join(workspace, 'b.pdf'), await makePdf(['Invoice B total 99 EUR', 'Page two of B']));
  provider = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Seen['body'];
      seen.push({ path: req.url!, headers: req.headers, body });
      const content = body.messages[0]!.content;
      // A compatible server that takes text only refuses content parts, as such servers answer: a 400.
      if (typeof content !== 'string')
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"message":"file content parts are not supported","type":"invalid_request_error"}}');
      const reply = `Answer from ${body.model}: ${content.length} characters read; last line: ${content.split('\n').at(-1)}`;
      if (body.model === 'broken')
        return void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"down","type":"server_error"}}');
      if (req.url === '/v1/messages') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [{ type: 'text', text: reply }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 5 },
          }),
        );
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  openai = await startMockOpenAI();
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
});

const runWith = (options: Omit<PdfPluginOptions, 'workspace'>): Promise<Run> =>
  createKernel({ plugins: [pdfPlugin({ workspace, ...options })] }).createRun({});
const json = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

describe('pdf: several documents, prompt, page ranges', () => {
  it('reads several documents in order, each with the page range asked for', async () => {
    const run = await runWith({});
    const result = json(await run.call('pdf', { pdfs: ['a.pdf', 'b.pdf'], pages: '2-3' })) as {
      documents: { path: string; pageCount: number; pages: { page: number; text: string }[] }[];
    };
    expect(result.documents.map((d) => [d.path, d.pageCount, d.pages.map((p) => p.page)])).toEqual([
      ['a.pdf', 3, [2, 3]],
      ['b.pdf', 2, [2]],
    ]);
    expect(result.documents[1]!.pages[0]!.text).toBe('Page two of B');
  });

  it("a prompt is answered by the configured model (Chat Completions) from the documents' text", async () => {
    const run = await runWith({ model: { model: 'pdf-reader', baseURL: url, apiKey: 'sk-pdf' } });
    const outcome = await run.call('pdf', { pdfs: ['a.pdf', 'b.pdf'], pages: '1', prompt: 'Which invoice is larger?' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        structuredContent: {
          model: 'pdf-reader',
          prompt: 'Which invoice is larger?',
          documents: [
            { path: 'a.pdf', pagesRead: [1] },
            { path: 'b.pdf', pagesRead: [1] },
          ],
        },
      },
    });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-pdf');
    const sent = request.body.messages[0]!.content;
    expect(sent).toContain('Invoice A total 420 EUR');
    expect(sent).toContain('Invoice B total 99 EUR');
    expect(sent).not.toContain('Page two');
    expect(sent.endsWith('Which invoice is larger?')).toBe(true);
    expect((outcome as unknown as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe(
      `Answer from pdf-reader: ${sent.length} characters read; last line: Which invoice is larger?`,
    );
  });

  it('with an Anthropic provider the PDF itself goes as a document block (the pages asked for, cut by pdf.js); a per-call model is the model asked', async () => {
    const run = await runWith({
      model: { kind: 'anthropic', model: 'claude-pdf', baseURL: anthropic.url, apiKey: 'sk-ant' },
    });
    const outcome = await run.call('pdf', { path: 'a.pdf', pages: '2-3', prompt: 'Total?', model: 'claude-other' });
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    expect(outcome.result.structuredContent).toMatchObject({
      model: 'claude-other',
      sentAs: 'pdf',
      documents: [{ path: 'a.pdf', pageCount: 3, pagesRead: [2, 3] }],
    });
    // The mock read the PDF it got: two pages, the ones asked for.
    expect((outcome.result.content[0] as { text: string }).text).toMatch(
      /^Mock document: document 1: a\.pdf, \d+ bytes, 2 pages: \[1\] "Page two of A" \[2\] "Page three of A"\. Prompt: Total\?$/,
    );
    const request = anthropic.requests.at(-1)!;
    expect(request.headers.authorization ?? request.headers['x-api-key']).toMatch(/sk-ant/);
    const body = request.body as {
      model: string;
      messages: {
        content: {
          type: string;
          title?: string;
          context?: string;
          source?: { type: string; media_type: string; data: string };
        }[];
      }[];
    };
    expect(body.model).toBe('claude-other');
    const [document, text] = body.messages[0]!.content;
    expect(document).toMatchObject({
      type: 'document',
      title: 'a.pdf',
      context: 'a.pdf: pages 2, 3 of 3',
      source: { type: 'base64', media_type: 'application/pdf' },
    });
    expect(text).toEqual({ type: 'text', text: 'Total?' });
    expect(JSON.stringify(body)).not.toContain('Invoice A');
  });

  it('with OpenAI taking files (input: "pdf") the PDF goes as a file part with file_data; all pages read: the file as it is', async () => {
    const run = await runWith({ model: { model: 'gpt-pdf', baseURL: openai.url, apiKey: 'sk-pdf', input: 'pdf' } });
    const outcome = await run.call('pdf', { pdfs: ['a.pdf', 'b.pdf'], pages: '1', prompt: 'Which is larger?' });
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    expect(outcome.result.structuredContent).toMatchObject({ sentAs: 'pdf' });
    expect((outcome.result.content[0] as { text: string }).text).toMatch(
      /document 1: a\.pdf, \d+ bytes, 1 pages: \[1\] "Invoice A total 420 EUR"; document 2: b\.pdf, \d+ bytes, 1 pages: \[1\] "Invoice B total 99 EUR"\. Prompt: a\.pdf: pages 1 of 3 b\.pdf: pages 1 of 2 Which is larger\?$/,
    );
    const parts = (
      openai.requests.at(-1)!.body as {
        messages: { content: { type: string; file?: { filename: string; file_data: string } }[] }[];
      }
    ).messages[0]!.content;
    expect(parts.map((part) => part.type)).toEqual(['text', 'file', 'text', 'file', 'text']);
    expect(parts[1]!.file).toMatchObject({
      filename: 'a.pdf',
      file_data: expect.stringMatching(/^data:application\/pdf;base64,JVBERi0/),
    });

    const whole = await run.call('pdf', { path: 'b.pdf', prompt: 'All?' });
    const sent = (openai.requests.at(-1)!.body as { messages: { content: { file?: { file_data: string } }[] }[] })
      .messages[0]!.content[1]!.file!.file_data;
    expect(Buffer.from(sent.split(',')[1]!, 'base64').equals(readFileSync(join(workspace, 'b.pdf')))).toBe(true);
    expect(whole).toMatchObject({
      status: 'ok',
      result: { structuredContent: { sentAs: 'pdf', documents: [{ pagesRead: [1, 2] }] } },
    });
  });

  it('a provider that refuses the file part gets the extracted text instead, and the result says so', async () => {
    const run = await runWith({ model: { model: 'text-only', baseURL: url, apiKey: 'k', input: 'pdf' } });
    const outcome = await run.call('pdf', { path: 'a.pdf', pages: '1', prompt: 'Total?' });
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    expect(outcome.result.structuredContent).toMatchObject({ sentAs: 'text', pdfRejected: { status: 400 } });
    const [refused, retried] = seen.slice(-2);
    expect(Array.isArray(refused!.body.messages[0]!.content)).toBe(true);
    expect(retried!.body.messages[0]!.content).toContain('Invoice A total 420 EUR');
  });

  it("sends PDFs by default to Anthropic and to OpenAI's own API, text to other OpenAI-compatible servers", () => {
    expect(sendsPdf({ model: 'm', apiKey: 'k', kind: 'anthropic', baseURL: 'http://127.0.0.1:1' })).toBe(true);
    expect(sendsPdf({ model: 'm', apiKey: 'k' })).toBe(true);
    expect(sendsPdf({ model: 'm', apiKey: 'k', baseURL: 'https://api.openai.com/v1' })).toBe(true);
    expect(sendsPdf({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:8000/v1' })).toBe(false);
    expect(sendsPdf({ model: 'm', apiKey: 'k', kind: 'anthropic', input: 'text' })).toBe(false);
  });

  it('without a model, or when the model fails, the extracted text is the answer and says why', async () => {
    const none = json(await (await runWith({})).call('pdf', { pdf: 'a.pdf', prompt: 'Total?' }));
    expect(none).toMatchObject({ path: 'a.pdf', pageCount: 3, note: expect.any(String) });
    const failed = json(
      await (await runWith({ model: { model: 'broken', baseURL: url, apiKey: 'k' } })).call('pdf', {
        path: 'a.pdf',
        prompt: 'Total?',
      }),
    );
    expect(failed).toMatchObject({ path: 'a.pdf', model: 'broken', modelError: { status: 500 } });
    expect((failed.pages as { text: string }[])[0]!.text).toBe('Invoice A total 420 EUR');
  });

  it('refuses no document and more than ten, with codes', async () => {
    const run = await runWith({});
    await expect(run.call('pdf', {})).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.TOOL_ARGUMENTS_INVALID },
    });
    await expect(run.call('pdf', { pdfs: Array.from({ length: 11 }, (_, i) => `${i}.pdf`) })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
  });
});
