/**
 * The answer-style `web_search` providers: a model grounded on a live search
 * writes an answer with citations. Each speaks its service's documented API:
 * - Gemini: `POST {baseUrl}/models/{model}:generateContent` (`x-goog-api-key`) with
 *   the `google_search` tool; citations from `groundingMetadata.groundingChunks[].web`.
 * - Grok (xAI): `POST {baseUrl}/responses` (Bearer key) with `tools: [{ type: 'web_search' }]`;
 *   citations from the top-level `citations` and the `url_citation` annotations.
 * - Kimi (Moonshot): `POST {baseUrl}/chat/completions` (Bearer key) with the builtin
 *   function `$web_search`; the client echoes each `$web_search` call's arguments
 *   back as the tool result (Moonshot runs the search) until the model answers.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { callProvider, shapeError, type SearchProvider } from './search-http.js';
import { WebErrors } from './errors.js';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';
export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';
export const XAI_BASE_URL = 'https://api.x.ai/v1';
export const DEFAULT_GROK_MODEL = 'grok-4-1-fast';
export const MOONSHOT_BASE_URL = 'https://api.moonshot.ai/v1';
export const DEFAULT_KIMI_MODEL = 'kimi-k2.5';
/** Moonshot answers after its searches; more `$web_search` rounds than this is a loop, not an answer. */
export const KIMI_MAX_ROUNDS = 5;

interface Citation {
  readonly url: string;
  readonly title?: string;
}

export function geminiProvider(apiKey: string, baseUrl: string, model: string, timeoutSeconds: number): SearchProvider {
  return {
    id: 'gemini',
    async search({ query }, signal) {
      const url = new URL(`${trim(baseUrl)}/models/${encodeURIComponent(model)}:generateContent`);
      const body = (await callProvider(
        'gemini',
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
          body: JSON.stringify({
            contents: [{ role: 'user', parts: [{ text: query }] }],
            tools: [{ google_search: {} }],
          }),
        },
        signal,
        timeoutSeconds,
      )) as {
        candidates?: {
          content?: { parts?: { text?: string }[] };
          groundingMetadata?: {
            webSearchQueries?: string[];
            groundingChunks?: { web?: { uri?: string; title?: string } }[];
          };
        }[];
      };
      const candidate = body.candidates?.[0];
      const parts = candidate?.content?.parts;
      if (!Array.isArray(parts)) throw shapeError('gemini', 'candidates[0].content.parts is missing');
      const content = parts.map((part) => part.text ?? '').join('');
      const citations = unique(
        (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((chunk) =>
          chunk.web?.uri ? [{ url: chunk.web.uri, ...(chunk.web.title ? { title: chunk.web.title } : {}) }] : [],
        ),
      );
      const searchQueries = candidate?.groundingMetadata?.webSearchQueries;
      return {
        query,
        provider: 'gemini',
        model,
        content,
        citations,
        ...(Array.isArray(searchQueries) ? { searchQueries } : {}),
      };
    },
  };
}

export function grokProvider(
  apiKey: string,
  baseUrl: string,
  model: string,
  inlineCitations: boolean,
  timeoutSeconds: number,
): SearchProvider {
  return {
    id: 'grok',
    async search({ query }, signal) {
      const url = new URL(`${trim(baseUrl)}/responses`);
      const request = {
        model,
        input: [{ role: 'user', content: query }],
        tools: [{ type: 'web_search' }],
        ...(inlineCitations ? { include: ['inline_citations'] } : {}),
      };
      const body = (await callProvider(
        'grok',
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify(request),
        },
        signal,
        timeoutSeconds,
      )) as {
        output?: {
          type?: string;
          content?: { type?: string; text?: string; annotations?: { type?: string; url?: string; title?: string }[] }[];
        }[];
        output_text?: string;
        citations?: unknown[];
      };
      const texts = (Array.isArray(body.output) ? body.output : [])
        .filter((item) => item.type === 'message')
        .flatMap((item) => item.content ?? [])
        .filter((part) => part.type === 'output_text');
      const content = texts.length ? texts.map((part) => part.text ?? '').join('') : body.output_text;
      if (typeof content !== 'string') throw shapeError('grok', 'no output message with output_text');
      const annotated = texts
        .flatMap((part) => part.annotations ?? [])
        .flatMap((a) =>
          a.type === 'url_citation' && a.url ? [{ url: a.url, ...(a.title ? { title: a.title } : {}) }] : [],
        );
      const listed = (Array.isArray(body.citations) ? body.citations : []).flatMap((c) =>
        typeof c === 'string' ? [{ url: c }] : c && typeof (c as Citation).url === 'string' ? [c as Citation] : [],
      );
      return { query, provider: 'grok', model, content, citations: unique([...annotated, ...listed]) };
    },
  };
}

interface KimiMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

export function kimiProvider(apiKey: string, baseUrl: string, model: string, timeoutSeconds: number): SearchProvider {
  return {
    id: 'kimi',
    async search({ query }, signal) {
      const url = new URL(`${trim(baseUrl)}/chat/completions`);
      const messages: KimiMessage[] = [{ role: 'user', content: query }];
      let searches = 0;
      const citations: Citation[] = [];
      for (let round = 0; round <= KIMI_MAX_ROUNDS; round++) {
        const body = (await callProvider(
          'kimi',
          url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
            body: JSON.stringify({
              model,
              messages,
              tools: [{ type: 'builtin_function', function: { name: '$web_search' } }],
            }),
          },
          signal,
          timeoutSeconds,
        )) as {
          choices?: { finish_reason?: string; message?: KimiMessage }[];
          search_results?: { url?: string; title?: string }[];
        };
        const choice = body.choices?.[0];
        const message = choice?.message;
        if (!message) throw shapeError('kimi', 'choices[0].message is missing');
        for (const result of Array.isArray(body.search_results) ? body.search_results : [])
          if (result.url) citations.push({ url: result.url, ...(result.title ? { title: result.title } : {}) });
        const calls = choice.finish_reason === 'tool_calls' ? (message.tool_calls ?? []) : [];
        if (!calls.length) {
          if (typeof message.content !== 'string') throw shapeError('kimi', 'choices[0].message.content is missing');
          const found = unique([...citations, ...urlsIn(message.content)]);
          // An answer with no search behind it is the model's memory, not a search result.
          if (!searches && !found.length) {
            throw new ToolSearchError(
              WebErrors.SEARCH_PROVIDER_FAILED,
              'kimi answered without searching (no $web_search call, no search results, no cited URL); retry, or use another provider',
              { details: { provider: 'kimi', rule: 'ungrounded' } },
            );
          }
          return { query, provider: 'kimi', model, content: message.content, citations: found, searches };
        }
        messages.push({ role: 'assistant', content: message.content ?? '', tool_calls: calls });
        for (const call of calls) {
          if (call.function?.name !== '$web_search')
            throw shapeError('kimi', `asked for an undeclared tool ${JSON.stringify(call.function?.name)}`);
          searches++;
          // Moonshot's documented loop: hand the arguments back unchanged; the search already ran on its side.
          messages.push({ role: 'tool', tool_call_id: call.id, name: '$web_search', content: call.function.arguments });
        }
      }
      throw new ToolSearchError(
        WebErrors.SEARCH_PROVIDER_FAILED,
        `kimi kept searching after ${KIMI_MAX_ROUNDS} rounds without answering`,
        { details: { provider: 'kimi', rule: 'rounds', rounds: KIMI_MAX_ROUNDS } },
      );
    },
  };
}

const trim = (url: string) => url.replace(/\/+$/, '');

function unique(citations: readonly Citation[]): Citation[] {
  const seen = new Map<string, Citation>();
  for (const citation of citations) if (!seen.has(citation.url)) seen.set(citation.url, citation);
  return [...seen.values()];
}

function urlsIn(text: string): Citation[] {
  return [...text.matchAll(/https?:\/\/[^\s)\]>"']+/g)].map((match) => ({ url: match[0].replace(/[.,;:]+$/, '') }));
}
