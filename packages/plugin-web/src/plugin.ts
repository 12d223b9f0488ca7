/**
 * `webPlugin`: `web_fetch` and `web_search` as core tools (`core:core:web_fetch`,
 * `core:core:web_search`). `web_fetch` is listed unless `tools.web.fetch.enabled`
 * is false; `web_search` only when a provider has a key (otherwise a
 * diagnostic says what to set): the model never sees a tool that cannot work.
 */
import { ErrorCode, errorMessage, ToolSearchError, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { jsonToolResult } from '@tool-search/provider-formats';
import { TtlCache } from './cache.js';
import { createExtractor, extractRaw, isHtml, type ExtractMode } from './extract.js';
import { createFetcher } from './fetch-page.js';
import {
  FIRECRAWL_BASE_URL,
  FIRECRAWL_DEFAULTS,
  firecrawlMayRecover,
  firecrawlScrape,
  type FirecrawlSettings,
} from './firecrawl.js';
import { checkWebConfig, FETCH_DEFAULTS, SEARCH_DEFAULTS, type WebConfig } from './options.js';
import { resolveSearchProvider, type Env } from './search-providers.js';

export const WEB_PLUGIN_NAME = '@tool-search/plugin-web';

export interface WebPluginOptions {
  /** `tools.web` from the config. */
  readonly web?: WebConfig;
  /** Where API keys are read from (default `process.env`). */
  readonly env?: Env;
}

export function webPlugin(options: WebPluginOptions = {}): KernelPlugin {
  const web = checkWebConfig(options.web);
  const fetchConfig = { ...FETCH_DEFAULTS, allowPrivate: false, ...web.fetch };
  const searchConfig = { ...SEARCH_DEFAULTS, ...web.search };
  const tools: ToolDefinition[] = [];
  let fetcher: ReturnType<typeof createFetcher> | undefined;
  let extractor: ReturnType<typeof createExtractor> | undefined;
  const env = options.env ?? process.env;
  const firecrawl = firecrawlSettings(web, env);
  if (web.fetch?.enabled !== false) {
    fetcher = createFetcher(fetchConfig);
    extractor = createExtractor();
    tools.push(
      webFetchTool(
        fetcher.fetchPage,
        extractor.extractHtml,
        fetchConfig,
        'apiKey' in firecrawl ? firecrawl : undefined,
      ),
    );
  }
  const provider =
    web.search?.enabled === false
      ? { missing: 'tools.web.search.enabled is false' }
      : resolveSearchProvider(searchConfig, env, searchConfig.timeoutSeconds);
  if ('search' in provider) tools.push(webSearchTool(provider.search, provider.id, searchConfig));

  return {
    name: WEB_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add(tools);
        if ('missing' in provider) {
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: `web_search is not listed: ${provider.missing}`,
            toolId: 'core:core:web_search',
          });
        }
        if ('missing' in firecrawl && web.fetch?.enabled !== false) {
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: `web_fetch's Firecrawl fallback is off: ${firecrawl.missing}`,
            toolId: 'core:core:web_fetch',
            details: { feature: 'firecrawl' },
          });
        }
      });
      hooks.shutdown.tapPromise(async () => {
        await Promise.all([fetcher?.close(), extractor?.close()]);
      });
    },
  };
}

type FetchPage = ReturnType<typeof createFetcher>['fetchPage'];
type ExtractHtml = ReturnType<typeof createExtractor>['extractHtml'];
/** The least time HTML extraction gets when the fetch used up (nearly) all of `timeoutSeconds`: enough for stripped text. */
const MIN_EXTRACT_MS = 250;

/** Firecrawl's settings when its fallback is on (a key, and `enabled` not false), or why it is off. */
function firecrawlSettings(
  web: WebConfig,
  env: Readonly<Record<string, string | undefined>>,
): FirecrawlSettings | { readonly missing: string } {
  const config = web.fetch?.firecrawl ?? {};
  if (config.enabled === false) return { missing: 'tools.web.fetch.firecrawl.enabled is false' };
  const apiKey = config.apiKey ?? env.FIRECRAWL_API_KEY;
  if (!apiKey) return { missing: 'no key: set tools.web.fetch.firecrawl.apiKey or FIRECRAWL_API_KEY' };
  return { ...FIRECRAWL_DEFAULTS, ...config, apiKey, baseUrl: config.baseUrl ?? FIRECRAWL_BASE_URL };
}

function webFetchTool(
  fetchPage: FetchPage,
  extractHtml: ExtractHtml,
  config: { maxChars: number; maxCharsCap: number; cacheTtlMinutes: number; timeoutSeconds: number },
  firecrawl: FirecrawlSettings | undefined,
): ToolDefinition {
  const cache = new TtlCache<Record<string, unknown>>(config.cacheTtlMinutes * 60_000);
  return {
    name: 'web_fetch',
    source: 'core',
    owner: 'core',
    description:
      'Fetch a URL with HTTP GET and return its readable content as markdown or text (no JavaScript runs). http(s) only.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'URL to fetch (http or https).' },
        extractMode: {
          type: 'string',
          enum: ['markdown', 'text'],
          default: 'markdown',
          description: 'Output format after main-content extraction.',
        },
        maxChars: {
          type: 'integer',
          minimum: 100,
          description: `Truncate the output to this many characters (at most ${config.maxCharsCap}).`,
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const url = String(args.url);
      const mode = (args.extractMode as ExtractMode | undefined) ?? 'markdown';
      const maxChars = Math.min(
        typeof args.maxChars === 'number' ? args.maxChars : config.maxChars,
        config.maxCharsCap,
      );
      const key = `${mode}\u0000${maxChars}\u0000${url}`;
      const cached = cache.get(key);
      if (cached) return jsonToolResult({ ...cached, cached: true });
      let local: FetchResult | undefined;
      let localError: unknown;
      try {
        local = await fetchLocally(url, mode, maxChars, ctx.signal);
      } catch (error) {
        if (!firecrawl || !firecrawlMayRecover(error)) throw error;
        localError = error;
      }
      let result = local;
      // Firecrawl after the local path: when it failed, or when an HTML page gave too little text (built by JavaScript).
      if (
        firecrawl &&
        (localError !== undefined ||
          (local && local.extractor !== 'raw' && local.length < Math.min(firecrawl.minChars, maxChars)))
      ) {
        try {
          const page = await firecrawlScrape(firecrawl, url, mode, ctx.signal);
          result = {
            url,
            finalUrl: page.finalUrl,
            status: page.status,
            contentType: 'text/markdown',
            ...(page.title ? { title: page.title } : {}),
            extractMode: mode,
            extractor: 'firecrawl',
            fallbackReason: localError !== undefined ? (localError as ToolSearchError).code : 'tooLittleText',
            truncated: page.text.length > maxChars,
            length: Math.min(page.text.length, maxChars),
            fetchedAt: new Date().toISOString(),
            text: page.text.slice(0, maxChars),
          };
        } catch (error) {
          if (localError === undefined) {
            // The local text stands; the answer says the fallback was tried.
            result = { ...local!, fallbackError: ToolSearchError.isInstance(error) ? error.message : String(error) };
          } else {
            const first = localError as ToolSearchError;
            throw new ToolSearchError(
              first.code,
              `${first.message}; the Firecrawl fallback failed too: ${errorMessage(error)}`,
              {
                details: { ...(first.details ?? {}), fallback: 'firecrawl' },
                cause: error,
              },
            );
          }
        }
      }
      cache.set(key, result!);
      return jsonToolResult({ ...result, cached: false });
    },
  };

  async function fetchLocally(
    url: string,
    mode: ExtractMode,
    maxChars: number,
    signal: AbortSignal,
  ): Promise<FetchResult> {
    const started = Date.now();
    const page = await fetchPage(url, signal);
    // The same deadline as the fetch: extraction gets what is left of timeoutSeconds.
    const left = Math.max(MIN_EXTRACT_MS, config.timeoutSeconds * 1000 - (Date.now() - started));
    const extracted = isHtml(page.body, page.contentType)
      ? await extractHtml(page.body, mode, left, signal)
      : extractRaw(page.body, page.contentType);
    return {
      url: page.url,
      finalUrl: page.finalUrl,
      status: page.status,
      contentType: page.contentType,
      ...(extracted.title ? { title: extracted.title } : {}),
      extractMode: mode,
      extractor: extracted.extractor,
      ...(extracted.bounded ? { bounded: extracted.bounded } : {}),
      truncated: extracted.text.length > maxChars || page.bodyTruncated,
      length: Math.min(extracted.text.length, maxChars),
      fetchedAt: new Date().toISOString(),
      text: extracted.text.slice(0, maxChars),
    };
  }
}

interface FetchResult extends Record<string, unknown> {
  readonly extractor: string;
  readonly length: number;
}

type Search = (request: { query: string; count: number }, signal: AbortSignal) => Promise<Record<string, unknown>>;

function webSearchTool(
  search: Search,
  providerId: string,
  config: { maxResults: number; cacheTtlMinutes: number },
): ToolDefinition {
  const cache = new TtlCache<Record<string, unknown>>(config.cacheTtlMinutes * 60_000);
  return {
    name: 'web_search',
    source: 'core',
    owner: 'core',
    description: `Search the web (${providerId})${providerId === 'brave' ? ' and return results with titles, URLs and snippets' : ''}${providerId === 'brave' ? '' : ': an answer grounded on a live search, with citations'}.`,
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Search query.' },
        count: {
          type: 'integer',
          minimum: 1,
          maximum: 10,
          description: `Number of results (default ${config.maxResults}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const request = {
        query: String(args.query),
        count: typeof args.count === 'number' ? args.count : config.maxResults,
      };
      const key = `${request.count}\u0000${request.query}`;
      const cached = cache.get(key);
      if (cached) return jsonToolResult({ ...cached, cached: true });
      const result = await search(request, ctx.signal);
      cache.set(key, result);
      return jsonToolResult({ ...result, cached: false });
    },
  };
}
