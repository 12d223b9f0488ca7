/**
 * `tools.web` as OpenClaw spells it (`fetch` and `search`), checked with the
 * kernel's JSON Schema validator; unknown OpenClaw keys (ssrfPolicy, …)
 * are accepted and have no effect here.
 */
import { ConfigError, ErrorCode, type JsonSchema, valueIssues } from '@tool-search/kernel';

export interface WebFetchConfig {
  readonly enabled?: boolean;
  /** Default length of the returned text (characters). */
  readonly maxChars?: number;
  /** Hard cap for the `maxChars` argument. */
  readonly maxCharsCap?: number;
  readonly maxResponseBytes?: number;
  readonly timeoutSeconds?: number;
  readonly cacheTtlMinutes?: number;
  readonly maxRedirects?: number;
  readonly userAgent?: string;
  /** Allow private, loopback and link-local addresses (off: a model-chosen URL cannot reach this machine's network). */
  readonly allowPrivate?: boolean;
  /** The hosted fallback for pages the local fetch cannot read (bot walls, JavaScript-built pages). */
  readonly firecrawl?: FirecrawlConfig;
}

export interface FirecrawlConfig {
  /** Default: on when a key is present. */
  readonly enabled?: boolean;
  /** Firecrawl API key (else `FIRECRAWL_API_KEY`). */
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly onlyMainContent?: boolean;
  /** Oldest cached copy Firecrawl may answer with (ms). */
  readonly maxAgeMs?: number;
  readonly timeoutSeconds?: number;
  /** Local extraction with fewer characters than this asks Firecrawl too. */
  readonly minChars?: number;
}

export interface WebSearchConfig {
  readonly enabled?: boolean;
  /** Which provider answers; unset: the first with a key in SEARCH_PROVIDER_ORDER. */
  readonly provider?: 'brave' | 'perplexity' | 'gemini' | 'grok' | 'kimi';
  /** Brave Search API key (else `BRAVE_API_KEY`). */
  readonly apiKey?: string;
  readonly maxResults?: number;
  readonly timeoutSeconds?: number;
  readonly cacheTtlMinutes?: number;
  readonly brave?: { readonly baseUrl?: string };
  readonly perplexity?: { readonly apiKey?: string; readonly baseUrl?: string; readonly model?: string };
  /** Gemini with Google Search grounding (else `GEMINI_API_KEY`). */
  readonly gemini?: { readonly apiKey?: string; readonly baseUrl?: string; readonly model?: string };
  /** Grok through xAI's Responses API with its `web_search` tool (else `XAI_API_KEY`). */
  readonly grok?: {
    readonly apiKey?: string;
    readonly baseUrl?: string;
    readonly model?: string;
    readonly inlineCitations?: boolean;
  };
  /** Kimi with Moonshot's builtin `$web_search` (else `KIMI_API_KEY`, `MOONSHOT_API_KEY`). */
  readonly kimi?: { readonly apiKey?: string; readonly baseUrl?: string; readonly model?: string };
}

export interface WebConfig {
  readonly fetch?: WebFetchConfig;
  readonly search?: WebSearchConfig;
}

export const FETCH_DEFAULTS = {
  maxChars: 50_000,
  maxCharsCap: 50_000,
  maxResponseBytes: 2_000_000,
  timeoutSeconds: 30,
  cacheTtlMinutes: 15,
  maxRedirects: 3,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
} as const;

export const SEARCH_DEFAULTS = { maxResults: 5, timeoutSeconds: 30, cacheTtlMinutes: 15 } as const;

const positive = { type: 'number', exclusiveMinimum: 0 } as const;
const count = { type: 'integer', minimum: 0 } as const;
const url = { type: 'string', pattern: '^https?://' } as const;
const answerProvider = {
  type: 'object',
  properties: { apiKey: { type: 'string', minLength: 1 }, baseUrl: url, model: { type: 'string', minLength: 1 } },
} as const;
/** JSON Schema of `tools.web` (exported for its tests). */
export const webConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    fetch: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean' },
        maxChars: { type: 'integer', minimum: 100 },
        maxCharsCap: { type: 'integer', minimum: 100 },
        maxResponseBytes: { type: 'integer', minimum: 1024 },
        timeoutSeconds: positive,
        cacheTtlMinutes: count,
        maxRedirects: count,
        userAgent: { type: 'string', minLength: 1 },
        allowPrivate: { type: 'boolean' },
        firecrawl: {
          type: 'object',
          properties: {
            enabled: { type: 'boolean' },
            apiKey: { type: 'string', minLength: 1 },
            baseUrl: url,
            onlyMainContent: { type: 'boolean' },
            maxAgeMs: count,
            timeoutSeconds: positive,
            minChars: count,
          },
        },
      },
    },
    search: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean' },
        provider: { enum: ['brave', 'perplexity', 'gemini', 'grok', 'kimi'] },
        apiKey: { type: 'string', minLength: 1 },
        maxResults: { type: 'integer', minimum: 1, maximum: 10 },
        timeoutSeconds: positive,
        cacheTtlMinutes: count,
        brave: { type: 'object', properties: { baseUrl: url } },
        perplexity: answerProvider,
        gemini: answerProvider,
        grok: { type: 'object', properties: { ...answerProvider.properties, inlineCitations: { type: 'boolean' } } },
        kimi: answerProvider,
      },
    },
  },
};

/** Throws a `ConfigError` naming the `/tools/web/...` path and the rule. */
export function checkWebConfig(config: unknown): WebConfig {
  const [issue] = valueIssues(webConfigSchema, config ?? {});
  if (issue) {
    const path = `/tools/web${issue.path === '/' ? '' : issue.path}`;
    throw new ConfigError(path, issue.rule, `${path} ${issue.message}`, { code: ErrorCode.CONFIG_INVALID });
  }
  return (config ?? {}) as WebConfig;
}
