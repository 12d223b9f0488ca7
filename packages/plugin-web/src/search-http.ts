/** The HTTP call every `web_search` provider makes: bounded by `timeoutSeconds`, failures as SEARCH_PROVIDER_FAILED. */
import { request } from 'undici';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { WebErrors } from './errors.js';

export type SearchProviderId = 'brave' | 'perplexity' | 'gemini' | 'grok' | 'kimi';

export interface SearchRequest {
  readonly query: string;
  readonly count: number;
}

export interface SearchProvider {
  readonly id: SearchProviderId;
  search(request: SearchRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
}

export async function callProvider(
  provider: string,
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
  timeoutSeconds: number,
): Promise<unknown> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutSeconds * 1000)]);
  // The key never reaches a message: some APIs take it in the query string.
  const where = `${url.origin}${url.pathname}`;
  let status = 0;
  try {
    const response = await request(url, { ...init, signal: deadline });
    status = response.statusCode;
    const text = await response.body.text();
    if (status >= 400) {
      throw new ToolSearchError(
        WebErrors.SEARCH_PROVIDER_FAILED,
        `${provider} search answered HTTP ${status} at ${where}: ${text.slice(0, 200)}`,
        { details: { provider, status, url: where } },
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ToolSearchError(
        WebErrors.SEARCH_PROVIDER_FAILED,
        `${provider} search answered with text that is not JSON at ${where}`,
        { details: { provider, status, url: where, rule: 'shape' }, cause: error },
      );
    }
  } catch (error) {
    if (ToolSearchError.isInstance(error)) throw error;
    throw new ToolSearchError(
      WebErrors.SEARCH_PROVIDER_FAILED,
      `${provider} search failed at ${where}: ${errorMessage(error)}`,
      {
        details: { provider, status, url: where },
        cause: error,
      },
    );
  }
}

export function shapeError(provider: string, what: string): ToolSearchError {
  return new ToolSearchError(
    WebErrors.SEARCH_PROVIDER_FAILED,
    `${provider} search answered in an undocumented shape: ${what}`,
    { details: { provider, rule: 'shape' } },
  );
}
