/**
 * `web_search` providers, each speaking its service's documented HTTP API:
 * Brave Search (`GET /res/v1/web/search`, structured results), Perplexity
 * Sonar (`POST /chat/completions`, directly or through OpenRouter: an answer
 * with citations) and the answer providers of search-answers.ts (Gemini, Grok,
 * Kimi). Keys come from config or the environment; without one the
 * provider does not exist and `web_search` is not listed.
 */
import type { WebSearchConfig } from './options.js';
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GROK_MODEL,
  DEFAULT_KIMI_MODEL,
  GEMINI_BASE_URL,
  geminiProvider,
  grokProvider,
  kimiProvider,
  MOONSHOT_BASE_URL,
  XAI_BASE_URL,
} from './search-answers.js';
import { callProvider as call, shapeError, type SearchProvider, type SearchProviderId } from './search-http.js';

export type { SearchProvider, SearchProviderId, SearchRequest } from './search-http.js';

export type Env = Readonly<Record<string, string | undefined>>;

export const BRAVE_BASE_URL = 'https://api.search.brave.com';
export const PERPLEXITY_BASE_URL = 'https://api.perplexity.ai';
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const DEFAULT_PERPLEXITY_MODEL = 'perplexity/sonar-pro';

/** Auto-detection order when `provider` is not set: the first provider with a key (OpenClaw's order). */
export const SEARCH_PROVIDER_ORDER: readonly SearchProviderId[] = ['brave', 'gemini', 'perplexity', 'grok', 'kimi'];

/** Where each provider's key comes from, as the diagnostic names it. */
const KEY_SOURCES: Readonly<Record<SearchProviderId, string>> = {
  brave: 'tools.web.search.apiKey or BRAVE_API_KEY',
  gemini: 'tools.web.search.gemini.apiKey or GEMINI_API_KEY',
  perplexity: 'tools.web.search.perplexity.apiKey, PERPLEXITY_API_KEY or OPENROUTER_API_KEY',
  grok: 'tools.web.search.grok.apiKey or XAI_API_KEY',
  kimi: 'tools.web.search.kimi.apiKey, KIMI_API_KEY or MOONSHOT_API_KEY',
};

/** Each provider's key from config, else from the environment. */
export function searchKeys(config: WebSearchConfig, env: Env): Readonly<Record<SearchProviderId, string | undefined>> {
  return {
    brave: config.apiKey ?? env.BRAVE_API_KEY,
    gemini: config.gemini?.apiKey ?? env.GEMINI_API_KEY,
    perplexity: config.perplexity?.apiKey ?? env.PERPLEXITY_API_KEY ?? env.OPENROUTER_API_KEY,
    grok: config.grok?.apiKey ?? env.XAI_API_KEY,
    kimi: config.kimi?.apiKey ?? env.KIMI_API_KEY ?? env.MOONSHOT_API_KEY,
  };
}

/** The configured provider (`provider`, else the first in SEARCH_PROVIDER_ORDER with a key), or why there is none (the reason becomes a diagnostic). */
export function resolveSearchProvider(
  config: WebSearchConfig,
  env: Env,
  timeoutSeconds: number,
): SearchProvider | { readonly missing: string } {
  const keys = searchKeys(config, env);
  const provider = config.provider ?? SEARCH_PROVIDER_ORDER.find((id) => keys[id]);
  if (provider === undefined)
    return {
      missing: `no search API key: set one of ${SEARCH_PROVIDER_ORDER.map((id) => `${KEY_SOURCES[id]} (${id})`).join('; ')}`,
    };
  const key = keys[provider];
  if (!key)
    return { missing: `tools.web.search.provider is "${provider}" but no key is set: ${KEY_SOURCES[provider]}` };
  switch (provider) {
    case 'brave':
      return braveProvider(key, config.brave?.baseUrl ?? BRAVE_BASE_URL, timeoutSeconds);
    case 'gemini':
      return geminiProvider(
        key,
        config.gemini?.baseUrl ?? GEMINI_BASE_URL,
        config.gemini?.model ?? DEFAULT_GEMINI_MODEL,
        timeoutSeconds,
      );
    case 'grok':
      return grokProvider(
        key,
        config.grok?.baseUrl ?? XAI_BASE_URL,
        config.grok?.model ?? DEFAULT_GROK_MODEL,
        config.grok?.inlineCitations ?? false,
        timeoutSeconds,
      );
    case 'kimi':
      return kimiProvider(
        key,
        config.kimi?.baseUrl ?? MOONSHOT_BASE_URL,
        config.kimi?.model ?? DEFAULT_KIMI_MODEL,
        timeoutSeconds,
      );
    case 'perplexity': {
      const direct = config.perplexity?.apiKey
        ? key.startsWith('pplx-')
        : env.PERPLEXITY_API_KEY !== undefined || key.startsWith('pplx-');
      const baseUrl = config.perplexity?.baseUrl ?? (direct ? PERPLEXITY_BASE_URL : OPENROUTER_BASE_URL);
      return perplexityProvider(key, baseUrl, config.perplexity?.model ?? DEFAULT_PERPLEXITY_MODEL, timeoutSeconds);
    }
  }
}

export function braveProvider(apiKey: string, baseUrl: string, timeoutSeconds: number): SearchProvider {
  return {
    id: 'brave',
    async search({ query, count }, signal) {
      const url = new URL('/res/v1/web/search', baseUrl);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      const body = (await call(
        'brave',
        url,
        { method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': apiKey } },
        signal,
        timeoutSeconds,
      )) as {
        web?: { results?: { title?: string; url?: string; description?: string; age?: string }[] };
      };
      const results = body.web?.results;
      if (results !== undefined && !Array.isArray(results)) throw shapeError('brave', 'web.results is not an array');
      return {
        query,
        provider: 'brave',
        count: results?.length ?? 0,
        results: (results ?? []).slice(0, count).map((r) => ({
          title: r.title ?? '',
          url: r.url ?? '',
          description: r.description ?? '',
          ...(r.age ? { published: r.age } : {}),
        })),
      };
    },
  };
}

export function perplexityProvider(
  apiKey: string,
  baseUrl: string,
  model: string,
  timeoutSeconds: number,
): SearchProvider {
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
      )) as {
        choices?: { message?: { content?: string } }[];
        citations?: string[];
        search_results?: { url?: string; title?: string }[];
      };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw shapeError('perplexity', 'choices[0].message.content is missing');
      const citations = Array.isArray(body.citations)
        ? body.citations
        : (body.search_results ?? []).map((r) => r.url ?? '').filter(Boolean);
      return { query, provider: 'perplexity', model: wireModel, content, citations };
    },
  };
}
