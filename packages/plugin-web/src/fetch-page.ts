/**
 * One bounded HTTP GET: http(s) only, at most `maxRedirects` redirects (each
 * target checked again), at most `maxResponseBytes` read, at most
 * `timeoutSeconds` in all, and no connection to a non-public address unless
 * `allowPrivate` (see address-guard.ts).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { guardedLookup, isPublicAddress, refusedAddress } from './address-guard.js';
import { NetGuardErrors } from '@tool-search/net-guard';

export interface FetchLimits {
  readonly allowPrivate: boolean;
  readonly maxRedirects: number;
  readonly maxResponseBytes: number;
  readonly timeoutSeconds: number;
  readonly userAgent: string;
  /** Which resolved addresses may be connected to when `allowPrivate` is off (default: public unicast only). */
  readonly addressAllowed?: (address: string) => boolean;
}

export interface FetchedPage {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The body was cut at `maxResponseBytes`. */
  readonly bodyTruncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createFetcher(limits: FetchLimits) {
  const allowed = limits.addressAllowed ?? isPublicAddress;
  const agent = new Agent(limits.allowPrivate ? {} : { connect: { lookup: guardedLookup(allowed) } });

  async function fetchPage(url: string, signal: AbortSignal): Promise<FetchedPage> {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(limits.timeoutSeconds * 1000)]);
    let current = checkUrl(url, limits.allowPrivate, allowed);
    for (let hop = 0; ; hop++) {
      const response = await request(current, {
        method: 'GET',
        dispatcher: agent,
        signal: deadline,
        headers: {
          'user-agent': limits.userAgent,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
          'accept-language': 'en-US,en;q=0.9',
        },
      }).catch((error: unknown) => {
        throw networkError(url, current, error, deadline);
      });
      const location = header(response.headers.location);
      if (REDIRECTS.has(response.statusCode) && location) {
        await response.body.dump();
        if (hop >= limits.maxRedirects) {
          throw new ToolSearchError(
            NetGuardErrors.FETCH_FAILED,
            `web_fetch gave up on ${url} after ${limits.maxRedirects} redirects`,
            { details: { rule: 'maxRedirects', url, finalUrl: current.href } },
          );
        }
        current = checkUrl(new URL(location, current).href, limits.allowPrivate, allowed);
        continue;
      }
      if (response.statusCode >= 400) {
        await response.body.dump();
        throw new ToolSearchError(
          NetGuardErrors.FETCH_FAILED,
          `web_fetch got HTTP ${response.statusCode} from ${current.href}`,
          { details: { rule: 'status', url, finalUrl: current.href, status: response.statusCode } },
        );
      }
      const { text, truncated } = await readBounded(
        response.body,
        limits.maxResponseBytes,
        charsetOf(header(response.headers['content-type'])),
      ).catch((error: unknown) => {
        throw networkError(url, current, error, deadline);
      });
      return {
        url,
        finalUrl: current.href,
        status: response.statusCode,
        contentType: header(response.headers['content-type']) ?? '',
        body: text,
        bodyTruncated: truncated,
      };
    }
  }

  let closing: Promise<void> | undefined;
  // Idempotent: a kernel closed twice shuts its plugins down twice.
  return { fetchPage, close: () => (closing ??= agent.close()) };
}

/** Parses and checks a URL before any connection: scheme, and hosts that are IP literals (DNS lookups are checked at connect). */
export function checkUrl(
  raw: string,
  allowPrivate: boolean,
  allowed: (address: string) => boolean = isPublicAddress,
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolSearchError(
      NetGuardErrors.URL_NOT_ALLOWED,
      `web_fetch needs an absolute http(s) URL, got ${JSON.stringify(raw.slice(0, 200))}`,
      { details: { rule: 'url', url: raw.slice(0, 200) } },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolSearchError(
      NetGuardErrors.URL_NOT_ALLOWED,
      `web_fetch only fetches http(s) URLs, not ${url.protocol}`,
      { details: { rule: 'scheme', url: url.href } },
    );
  }
  if (url.username || url.password) {
    throw new ToolSearchError(NetGuardErrors.URL_NOT_ALLOWED, 'web_fetch does not send credentials embedded in a URL', {
      details: { rule: 'credentials', url: `${url.protocol}//${url.host}` },
    });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (ipaddr.isValid(host) || isIP(host) !== 0) && !allowed(host)) throw refusedAddress(host, host);
  return url;
}

async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
  charset: string,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      truncated = true;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: decode(Buffer.concat(chunks), charset), truncated };
}

function decode(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function charsetOf(contentType: string | undefined): string {
  return /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function networkError(url: string, current: URL, error: unknown, deadline: AbortSignal): ToolSearchError {
  if (ToolSearchError.isInstance(error)) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (ToolSearchError.isInstance(cause)) return cause;
  const timedOut = deadline.aborted && (deadline.reason as { name?: string } | undefined)?.name === 'TimeoutError';
  const message = errorMessage(error);
  return new ToolSearchError(
    NetGuardErrors.FETCH_FAILED,
    timedOut ? `web_fetch timed out on ${current.href}` : `web_fetch could not fetch ${current.href}: ${message}`,
    {
      details: { rule: timedOut ? 'timeout' : 'network', url, finalUrl: current.href },
      cause: error,
    },
  );
}
