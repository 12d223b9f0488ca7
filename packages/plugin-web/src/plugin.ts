/**
 * `webPlugin`: `web_fetch` and `web_search` as core tools (`core:core:web_fetch`,
 * `core:core:web_search`). `web_fetch` is listed unless `tools.web.fetch.enabled`
 * is false; `web_search` only when a provider has a key (otherwise a
 * diagnostic says what to set): the model never sees a tool that cannot work.
 */
import { ErrorCode, jsonToolResult, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { TtlCache } from './cache.js';
import { createExtractor, extractRaw, isHtml, type ExtractMode } from './extract.js';
import { createFetcher } from './fetch-page.js';
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
  if (web.fetch?.enabled !== false) {
    fetcher = createFetcher(fetchConfig);
    extractor = createExtractor();
    tools.push(webFetchTool(fetcher.fetchPage, extractor.extractHtml, fetchConfig));
  }
  const provider = web.search?.enabled === false ? { missing: 'tools.web.search.enabled is false' } : resolveSearchProvider(searchConfig, options.env ?? process.env, searchConfig.timeoutSeconds);
  if ('search' in provider) tools.push(webSearchTool(provider.search, provider.id, searchConfig));

  return {
    name: WEB_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add(tools);
        if ('missing' in provider) {
          sink.diagnostic({ code: ErrorCode.TOOL_NOT_CONFIGURED, level: 'info', message: `web_search is not listed: ${provider.missing}`, toolId: 'core:core:web_search' });
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

function webFetchTool(fetchPage: FetchPage, extractHtml: ExtractHtml, config: { maxChars: number; maxCharsCap: number; cacheTtlMinutes: number; timeoutSeconds: number }): ToolDefinition {
  const cache = new TtlCache<Record<string, unknown>>(config.cacheTtlMinutes * 60_000);
  return {
    name: 'web_fetch',
    source: 'core',
    owner: 'core',
    description: 'Fetch a URL with HTTP GET and return its readable content as markdown or text (no JavaScript runs). http(s) only.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'URL to fetch (http or https).' },
        extractMode: { type: 'string', enum: ['markdown', 'text'], default: 'markdown', description: 'Output format after main-content extraction.' },
        maxChars: { type: 'integer', minimum: 100, description: `Truncate the output to this many characters (at most ${config.maxCharsCap}).` },
      },
      required: ['url'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const url = String(args.url);
      const mode = (args.extractMode as ExtractMode | undefined) ?? 'markdown';
      const maxChars = Math.min(typeof args.maxChars === 'number' ? args.maxChars : config.maxChars, config.maxCharsCap);
      const key = `${mode}\u0000${maxChars}\u0000${url}`;
      const cached = cache.get(key);
      if (cached) return jsonToolResult({ ...cached, cached: true });
      const started = Date.now();
      const page = await fetchPage(url, ctx.signal);
      // The same deadline as the fetch: extraction gets what is left of timeoutSeconds.
      const left = Math.max(MIN_EXTRACT_MS, config.timeoutSeconds * 1000 - (Date.now() - started));
      const extracted = isHtml(page.body, page.contentType) ? await extractHtml(page.body, mode, left, ctx.signal) : extractRaw(page.body, page.contentType);
      const truncated = extracted.text.length > maxChars || page.bodyTruncated;
      const result = {
        url: page.url,
        finalUrl: page.finalUrl,
        status: page.status,
        contentType: page.contentType,
        ...(extracted.title ? { title: extracted.title } : {}),
        extractMode: mode,
        extractor: extracted.extractor,
        ...(extracted.bounded ? { bounded: extracted.bounded } : {}),
        truncated,
        length: Math.min(extracted.text.length, maxChars),
        fetchedAt: new Date().toISOString(),
        text: extracted.text.slice(0, maxChars),
      };
      cache.set(key, result);
      return jsonToolResult({ ...result, cached: false });
    },
  };
}

type Search = (request: { query: string; count: number }, signal: AbortSignal) => Promise<Record<string, unknown>>;

function webSearchTool(search: Search, providerId: string, config: { maxResults: number; cacheTtlMinutes: number }): ToolDefinition {
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
        count: { type: 'integer', minimum: 1, maximum: 10, description: `Number of results (default ${config.maxResults}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const request = { query: String(args.query), count: typeof args.count === 'number' ? args.count : config.maxResults };
      const key = `${request.count}\u0000${request.query}`;
      const cached = cache.get(key);
      if (cached) return jsonToolResult({ ...cached, cached: true });
      const result = await search(request, ctx.signal);
      cache.set(key, result);
      return jsonToolResult({ ...result, cached: false });
    },
  };
}

