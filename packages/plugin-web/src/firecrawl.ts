/**
 * `web_fetch`'s Firecrawl fallback on Firecrawl's documented scrape API:
 * `POST {baseUrl}/v2/scrape` with a Bearer key and `{ url, formats: ['markdown'],
 * onlyMainContent, maxAge, proxy: 'auto', storeInCache: true, timeout }`, answered
 * with `{ success, data: { markdown, metadata: { title, url, sourceURL, statusCode } } }`.
 *
 * Used only after the local path: when the page could not be fetched (an HTTP error
 * such as a bot wall's 403/429/503, a network failure, a timeout), when extraction
 * failed, or when it yielded fewer than `minChars` characters (a page built by
 * JavaScript). Never for a URL the address rules refused: Firecrawl is not a way
 * around `URL_NOT_ALLOWED`.
 */
import { NetGuardErrors } from '@tool-search/net-guard';
import { request } from 'undici';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { WebErrors } from './errors.js';
import type { ExtractMode } from './extract.js';

export const FIRECRAWL_BASE_URL = 'https://api.firecrawl.dev';
export const FIRECRAWL_DEFAULTS = {
  onlyMainContent: true,
  maxAgeMs: 172_800_000,
  timeoutSeconds: 60,
  minChars: 200,
} as const;

export interface FirecrawlSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly onlyMainContent: boolean;
  readonly maxAgeMs: number;
  readonly timeoutSeconds: number;
  /** Local extraction shorter than this (characters) asks Firecrawl too. */
  readonly minChars: number;
}

export interface FirecrawlPage {
  readonly text: string;
  readonly title?: string;
  readonly finalUrl: string;
  readonly status: number;
}

/** The local failures Firecrawl may recover: the page could not be fetched or read, never a refused address. */
export function firecrawlMayRecover(error: unknown): boolean {
  if (!ToolSearchError.isInstance(error)) return false;
  if (error.code === WebErrors.WEB_EXTRACT_FAILED) return true;
  const rule = (error.details as { rule?: string } | undefined)?.rule;
  return (
    error.code === NetGuardErrors.FETCH_FAILED &&
    (rule === 'status' || rule === 'network' || rule === 'timeout' || rule === 'maxRedirects')
  );
}

export async function firecrawlScrape(
  settings: FirecrawlSettings,
  url: string,
  mode: ExtractMode,
  signal: AbortSignal,
): Promise<FirecrawlPage> {
  const endpoint = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/v2/scrape`);
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutSeconds * 1000)]);
  const where = `${endpoint.origin}${endpoint.pathname}`;
  let status = 0;
  let text: string;
  try {
    const response = await request(endpoint, {
      method: 'POST',
      signal: deadline,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.apiKey}` },
      body: JSON.stringify({
        url,
        formats: ['markdown'],
        onlyMainContent: settings.onlyMainContent,
        maxAge: settings.maxAgeMs,
        proxy: 'auto',
        storeInCache: true,
        timeout: settings.timeoutSeconds * 1000,
      }),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw failed(`Firecrawl could not be reached at ${where}: ${errorMessage(error)}`, { status, url: where }, error);
  }
  let body: {
    success?: boolean;
    error?: string;
    data?: {
      markdown?: string;
      metadata?: { title?: string; url?: string; sourceURL?: string; statusCode?: number; error?: string };
    };
  };
  try {
    body = JSON.parse(text) as typeof body;
  } catch (error) {
    throw failed(`Firecrawl answered HTTP ${status} with text that is not JSON`, { status, url: where }, error);
  }
  if (status >= 400 || body.success === false)
    throw failed(`Firecrawl answered HTTP ${status}: ${String(body.error ?? text).slice(0, 200)}`, {
      status,
      url: where,
    });
  const markdown = body.data?.markdown;
  if (typeof markdown !== 'string')
    throw failed('Firecrawl answered without data.markdown', { status, url: where, rule: 'shape' });
  const metadata = body.data?.metadata ?? {};
  if (typeof metadata.statusCode === 'number' && metadata.statusCode >= 400) {
    throw failed(`Firecrawl fetched ${url} but the site answered HTTP ${metadata.statusCode}`, {
      status: metadata.statusCode,
      url: where,
      rule: 'siteStatus',
    });
  }
  return {
    text: mode === 'text' ? markdownToText(markdown) : markdown,
    ...(metadata.title ? { title: metadata.title } : {}),
    finalUrl: metadata.url ?? metadata.sourceURL ?? url,
    status: metadata.statusCode ?? 200,
  };
}

function failed(message: string, details: Record<string, unknown>, cause?: unknown): ToolSearchError {
  return new ToolSearchError(NetGuardErrors.FETCH_FAILED, message, {
    details: { provider: 'firecrawl', rule: 'firecrawl', ...details },
    ...(cause !== undefined ? { cause } : {}),
  });
}

/** `text` mode from Firecrawl's markdown: links and images become their text, markup characters go. */
function markdownToText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
