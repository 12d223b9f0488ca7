/**
 * `web_search` providers, each speaking its service's documented HTTP API:
 * Brave Search (`GET /res/v1/web/search`, structured results) and Perplexity
 * Sonar (`POST /chat/completions`, directly or through OpenRouter: an answer
 * with citations). Keys come from config or the environment; without one the
 * provider does not exist and `web_search` is not listed.
 */
import { request } from 'undici';
import { ToolSearchError } from '@tool-search/kernel';
import type { WebSearchConfig } from './options.js';
import { WebErrors } from './errors.js';

export interface SearchRequest {
  readonly query: string;
  readonly count: number;
}

export interface SearchProvider {
  readonly id: 'brave' | 'perplexity';
  search(request: SearchRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
}

export type Env = Readonly<Record<string, string | undefined>>;

export const BRAVE_BASE_URL = 'https://api.search.brave.com';
export const PERPLEXITY_BASE_URL = 'https://api.perplexity.ai';
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const DEFAULT_PERPLEXITY_MODEL = 'perplexity/sonar-pro';

/** The configured provider, or why there is none (the reason becomes a diagnostic). */
export function resolveSearchProvider(config: WebSearchConfig, env: Env, timeoutSeconds: number): SearchProvider | { readonly missing: string } {
  const braveKey = config.apiKey ?? env.BRAVE_API_KEY;
  const perplexityKey = config.perplexity?.apiKey ?? env.PERPLEXITY_API_KEY ?? env.OPENROUTER_API_KEY;
  const provider = config.provider ?? (braveKey ? 'brave' : perplexityKey ? 'perplexity' : undefined);
  if (provider === 'brave' || provider === undefined) {
    if (!braveKey) return { missing: 'no search API key: set tools.web.search.apiKey or BRAVE_API_KEY (Brave), or tools.web.search.perplexity.apiKey, PERPLEXITY_API_KEY or OPENROUTER_API_KEY (Perplexity)' };
    return braveProvider(braveKey, config.brave?.baseUrl ?? BRAVE_BASE_URL, timeoutSeconds);
  }
  if (!perplexityKey) return { missing: 'tools.web.search.provider is "perplexity" but no key is set: tools.web.search.perplexity.apiKey, PERPLEXITY_API_KEY or OPENROUTER_API_KEY' };
  const direct = config.perplexity?.apiKey ? perplexityKey.startsWith('pplx-') : env.PERPLEXITY_API_KEY !== undefined || perplexityKey.startsWith('pplx-');
  const baseUrl = config.perplexity?.baseUrl ?? (direct ? PERPLEXITY_BASE_URL : OPENROUTER_BASE_URL);
  return perplexityProvider(perplexityKey, baseUrl, config.perplexity?.model ?? DEFAULT_PERPLEXITY_MODEL, timeoutSeconds);
}

export function braveProvider(apiKey: string, baseUrl: string, timeoutSeconds: number): SearchProvider {
  return {
    id: 'brave',
    async search({ query, count }, signal) {
      const url = new URL('/res/v1/web/search', baseUrl);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      const body = (await call('brave', url, { method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': apiKey } }, signal, timeoutSeconds)) as {
        web?: { results?: { title?: string; url?: string; description?: string; age?: string }[] };
      };
      const results = body.web?.results;
      if (results !== undefined && !Array.isArray(results)) throw shapeError('brave', 'web.results is not an array');
      return {
        query,
        provider: 'brave',
        count: results?.length ?? 0,
        results: (results ?? []).slice(0, count).map((r) => ({ title: r.title ?? '', url: r.url ?? '', description: r.description ?? '', ...(r.age ? { published: r.age } : {}) })),
      };
    },
  };
}

export function perplexityProvider(apiKey: string, baseUrl: string, model: string, timeoutSeconds: number): SearchProvider {
  // The direct API names models without OpenRouter's `perplexity/` prefix.
  const wireModel = baseUrl.startsWith(PERPLEXITY_BASE_URL) ? model.replace(/^perplexity\//, '') : model;
  return {
    id: 'perplexity',
    async search({ query }, signal) {
      const url = new URL(`${baseUrl.replace(/\/$/, '')}/chat/completions`);
      const body = (await call(
        'perplexity',
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify({ model: wireModel, messages: [{ role: 'user', content: query }] }),
        },
        signal,
        timeoutSeconds,
      )) as { choices?: { message?: { content?: string } }[]; citations?: string[]; search_results?: { url?: string; title?: string }[] };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw shapeError('perplexity', 'choices[0].message.content is missing');
      const citations = Array.isArray(body.citations) ? body.citations : (body.search_results ?? []).map((r) => r.url ?? '').filter(Boolean);
      return { query, provider: 'perplexity', model: wireModel, content, citations };
    },
  };
}

async function call(provider: string, url: URL, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }, signal: AbortSignal, timeoutSeconds: number): Promise<unknown> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutSeconds * 1000)]);
  let status = 0;
  try {
    const response = await request(url, { ...init, signal: deadline });
    status = response.statusCode;
    const text = await response.body.text();
    if (status >= 400) {
      throw new ToolSearchError(WebErrors.SEARCH_PROVIDER_FAILED, `${provider} search answered HTTP ${status} at ${url.origin}${url.pathname}: ${text.slice(0, 200)}`, { details: { provider, status, url: `${url.origin}${url.pathname}` } });
    }
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (ToolSearchError.isInstance(error)) throw error;
    throw new ToolSearchError(WebErrors.SEARCH_PROVIDER_FAILED, `${provider} search failed at ${url.origin}${url.pathname}: ${error instanceof Error ? error.message : String(error)}`, {
      details: { provider, status, url: `${url.origin}${url.pathname}` },
      cause: error,
    });
  }
}

function shapeError(provider: string, what: string): ToolSearchError {
  return new ToolSearchError(WebErrors.SEARCH_PROVIDER_FAILED, `${provider} search answered in an undocumented shape: ${what}`, { details: { provider, rule: 'shape' } });
}
