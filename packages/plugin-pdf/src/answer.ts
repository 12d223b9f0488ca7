/**
 * The `prompt` answered by the configured model over the provider's own API (Chat Completions or Anthropic
 * Messages, through the official clients): one user message holding the prompt and each document's extracted text,
 * marked with its path and page numbers. Text works on every model; the pages sent are the ones read.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { PdfText } from './read.js';

export interface PdfModelOptions {
  /** The model that answers `prompt` (the preset: `agents.defaults.pdfModel`, else the image model, else the main model). */
  readonly model: string;
  /** The provider's wire format: `openai` (Chat Completions, default) or `anthropic` (Messages). */
  readonly kind?: 'openai' | 'anthropic';
  readonly baseURL?: string;
  readonly apiKey: string;
}

export type Answer = (prompt: string, documents: readonly PdfText[], model: string, signal: AbortSignal) => Promise<string>;

export function answerer(options: PdfModelOptions): Answer {
  const common = { apiKey: options.apiKey, ...(options.baseURL ? { baseURL: options.baseURL } : {}), maxRetries: 0 };
  if (options.kind === 'anthropic') {
    const client = new Anthropic(common);
    return async (prompt, documents, model, signal) => {
      const message = await client.messages.create({ model, max_tokens: 2048, messages: [{ role: 'user', content: userText(prompt, documents) }] }, { signal });
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    };
  }
  const client = new OpenAI(common);
  return async (prompt, documents, model, signal) => {
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: userText(prompt, documents) }] }, { signal });
    return completion.choices[0]?.message.content ?? '';
  };
}

export function userText(prompt: string, documents: readonly PdfText[]): string {
  const docs = documents.map((doc) => `<document path=${JSON.stringify(doc.path)} pageCount="${doc.pageCount}">\n${doc.pages.map((p) => `<page number="${p.page}">\n${p.text}\n</page>`).join('\n')}\n</document>`);
  return `${docs.join('\n')}\n\n${prompt}`;
}
