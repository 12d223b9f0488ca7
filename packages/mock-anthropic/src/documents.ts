/**
 * `document` content blocks as the Messages API documents them: `source` is `base64` (`media_type`
 * `application/pdf`, `data` the file in base64), `text` (`text/plain`, `data` the text) or `content` (text blocks);
 * `title` and `context` are optional strings. `url` and `file` sources name something this mock cannot fetch (no
 * network, no Files API), so they are refused like a source the API cannot read. `documentBlockError` gives the
 * reason for a 400; `documentParts` turns the blocks into the Chat Completions `file` / `text` parts the shared
 * script engine answers (`describeDocuments` of `@tool-search/mock-openai`).
 */
import type { ContentPart } from '@tool-search/mock-openai';
import type { ContentBlock, MessagesRequest } from './types.js';

type Source = {
  readonly type?: unknown;
  readonly media_type?: unknown;
  readonly data?: unknown;
  readonly content?: unknown;
};
type Document = { readonly source?: Source; readonly title?: unknown; readonly context?: unknown };

/** Why the first malformed `document` block is refused, with its JSON path; undefined when all are fine. */
export function documentBlockError(request: MessagesRequest): string | undefined {
  for (const [m, message] of request.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [b, block] of (message.content as readonly ContentBlock[]).entries()) {
      if (block.type !== 'document') continue;
      const path = `messages.${m}.content.${b}`;
      if (message.role !== 'user') return `${path}: document blocks are only allowed in user messages`;
      const problem = sourceProblem(block as Document, path);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A user message's `document` blocks as chat parts: a PDF as a `file` part (data URL), a text document as text. */
export function documentParts(blocks: readonly ContentBlock[]): ContentPart[] {
  return blocks.flatMap((block): ContentPart[] => {
    if (block.type !== 'document') return [];
    const { source, title } = block as Document;
    const name = typeof title === 'string' ? title : undefined;
    if (source?.type === 'base64')
      return [
        {
          type: 'file',
          file: {
            ...(name ? { filename: name } : {}),
            file_data: `data:application/pdf;base64,${String(source.data)}`,
          },
        } as ContentPart,
      ];
    if (source?.type === 'text') return [{ type: 'text', text: String(source.data) }];
    if (source?.type === 'content') return [{ type: 'text', text: contentText(source.content) }];
    return [];
  });
}

function sourceProblem(document: Document, path: string): string | undefined {
  const { source } = document;
  if (document.title !== undefined && document.title !== null && typeof document.title !== 'string')
    return `${path}.title: Input should be a valid string`;
  if (document.context !== undefined && document.context !== null && typeof document.context !== 'string')
    return `${path}.context: Input should be a valid string`;
  if (typeof source !== 'object' || source === null) return `${path}.source: Field required`;
  switch (source.type) {
    case 'base64': {
      if (source.media_type !== 'application/pdf')
        return `${path}.source.media_type: Input should be 'application/pdf'`;
      if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(source.data))
        return `${path}.source.data: must be base64-encoded`;
      if (Buffer.from(source.data, 'base64').subarray(0, 5).toString('latin1') !== '%PDF-')
        return `${path}.source.data: The PDF specified was not valid.`;
      return undefined;
    }
    case 'text':
      if (source.media_type !== 'text/plain') return `${path}.source.media_type: Input should be 'text/plain'`;
      return typeof source.data === 'string' ? undefined : `${path}.source.data: Input should be a valid string`;
    case 'content':
      return typeof source.content === 'string' || Array.isArray(source.content)
        ? undefined
        : `${path}.source.content: Input should be a string or a list of content blocks`;
    case 'url':
    case 'file':
      return `${path}.source: ${source.type} sources are not served by this mock (no network, no Files API); send base64 data`;
    default:
      return `${path}.source.type: Input tag ${JSON.stringify(source.type)} does not match any of 'base64', 'text', 'content', 'url', 'file'`;
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content
        .map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
        .join('')
    : '';
}
