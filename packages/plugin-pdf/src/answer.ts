/**
 * The `prompt` answered by the configured model over the provider's own API (Chat Completions or Anthropic
 * Messages, through the official clients). Where the provider reads PDFs, the PDF itself goes (the pages read, cut
 * by pdf.js): an Anthropic `document` block (base64 `application/pdf`), an OpenAI `file` part (`file_data` data
 * URL). Otherwise, or when the provider refuses the file (HTTP 400/415/422), the extracted text goes, marked with
 * path and page numbers: text works on every model.
 */
import { basename } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { errorMessage } from '@tool-search/kernel';
import type { PdfDocument, PdfText } from './read.js';

/** How the documents reach the model: `pdf` (the file), `text` (the extracted text). */
export type PdfInput = 'pdf' | 'text';

export interface PdfModelOptions {
  /** The model that answers `prompt` (the preset: `agents.defaults.pdfModel`, else the image model, else the main model). */
  readonly model: string;
  /** The provider's wire format: `openai` (Chat Completions, default) or `anthropic` (Messages). */
  readonly kind?: 'openai' | 'anthropic';
  readonly baseURL?: string;
  readonly apiKey: string;
  /**
   * `pdf` sends the PDF itself, `text` the extracted text. Default: `pdf` for Anthropic and for OpenAI's own API
   * (no `baseURL`, or `api.openai.com`), `text` for other OpenAI-compatible servers (many do not take file parts).
   */
  readonly input?: PdfInput;
}

/** What the model answered, and how the documents went (`pdfRejected`: the provider refused the PDF, the text went). */
export interface Answered {
  readonly text: string;
  readonly sentAs: PdfInput;
  readonly pdfRejected?: { readonly status?: number; readonly message: string };
}

export type Answer = (
  prompt: string,
  documents: readonly PdfDocument[],
  model: string,
  signal: AbortSignal,
) => Promise<Answered>;

/** Whether documents go as PDFs by default to this provider (see `PdfModelOptions.input`). */
export function sendsPdf(options: PdfModelOptions): boolean {
  if (options.input) return options.input === 'pdf';
  if (options.kind === 'anthropic') return true;
  if (!options.baseURL) return true;
  try {
    return new URL(options.baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export function answerer(options: PdfModelOptions): Answer {
  const common = { apiKey: options.apiKey, ...(options.baseURL ? { baseURL: options.baseURL } : {}), maxRetries: 0 };
  // Each SDK is hundreds of files: the provider's own loads on the first question, not with the plugin.
  const ask =
    options.kind === 'anthropic'
      ? anthropicAsk(once(() => import('@anthropic-ai/sdk').then(({ default: Client }) => new Client(common))))
      : openaiAsk(once(() => import('openai').then(({ default: Client }) => new Client(common))));
  const pdf = sendsPdf(options);
  return async (prompt, documents, model, signal) => {
    if (!pdf) return { text: await ask(textContent(prompt, documents), model, signal), sentAs: 'text' };
    try {
      return { text: await ask(pdfContent(prompt, documents), model, signal), sentAs: 'pdf' };
    } catch (error) {
      const status = (error as { status?: number }).status;
      // The provider refused the file part itself: the text still answers. Any other failure is the caller's.
      if (status !== 400 && status !== 415 && status !== 422) throw error;
      const message = errorMessage(error);
      return {
        text: await ask(textContent(prompt, documents), model, signal),
        sentAs: 'text',
        pdfRejected: { status, message },
      };
    }
  };
}

/** The message content in a neutral shape each wire format maps: text, or a PDF with its name and page note. */
type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'pdf'; readonly path: string; readonly data: string; readonly note: string };
type Ask = (content: readonly Part[], model: string, signal: AbortSignal) => Promise<string>;

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

function anthropicAsk(client: () => Promise<Anthropic>): Ask {
  return async (content, model, signal) => {
    const blocks: Anthropic.ContentBlockParam[] = content.map((part) =>
      part.kind === 'text'
        ? { type: 'text', text: part.text }
        : {
            type: 'document',
            title: part.path,
            context: part.note,
            source: { type: 'base64', media_type: 'application/pdf', data: part.data },
          },
    );
    const message = await (await client()).messages.create(
      { model, max_tokens: 2048, messages: [{ role: 'user', content: blocks }] },
      { signal },
    );
    return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  };
}

function openaiAsk(client: () => Promise<OpenAI>): Ask {
  return async (content, model, signal) => {
    const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = content.flatMap(
      (part): OpenAI.Chat.Completions.ChatCompletionContentPart[] =>
        part.kind === 'text'
          ? [{ type: 'text', text: part.text }]
          : [
              { type: 'text', text: part.note },
              {
                type: 'file',
                file: { filename: basename(part.path), file_data: `data:application/pdf;base64,${part.data}` },
              },
            ],
    );
    // One text part stays a plain string, as before.
    const message = parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : parts;
    const completion = await (await client()).chat.completions.create(
      { model, messages: [{ role: 'user', content: message }] },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  };
}

function pdfContent(prompt: string, documents: readonly PdfDocument[]): Part[] {
  return [
    ...documents.map(
      (doc): Part =>
        doc.pdf
          ? { kind: 'pdf', path: doc.path, data: Buffer.from(doc.pdf).toString('base64'), note: pagesNote(doc) }
          : { kind: 'text', text: userText('', [doc]).trimEnd() },
    ),
    { kind: 'text', text: prompt },
  ];
}

function textContent(prompt: string, documents: readonly PdfText[]): Part[] {
  return [{ kind: 'text', text: userText(prompt, documents) }];
}

/** `a.pdf: pages 2, 3 of 5` — which pages of the original the attached PDF holds. */
function pagesNote(doc: PdfText): string {
  return `${doc.path}: ${doc.pages.length === doc.pageCount ? `all ${doc.pageCount} pages` : `pages ${doc.pages.map((p) => p.page).join(', ')} of ${doc.pageCount}`}`;
}

export function userText(prompt: string, documents: readonly PdfText[]): string {
  const docs = documents.map(
    (doc) =>
      `<document path=${JSON.stringify(doc.path)} pageCount="${doc.pageCount}">\n${doc.pages.map((p) => `<page number="${p.page}">\n${p.text}\n</page>`).join('\n')}\n</document>`,
  );
  return `${docs.join('\n')}\n\n${prompt}`;
}
