/**
 * The viewer mode: a rendered diff page kept in memory for a while and served read-only by the gateway under
 * `/plugins/diffs/view/<artifactId>/<token>`. This package declares what a front end mounts (`GatewayPages`: a route
 * in the gateway's `routes` shape, and `bind` to learn the gateway's origin); the gateway's own checks run first
 * (keyless: loopback Host/Origin, same local user; with keys: a key). The page is the renderer's HTML (the same
 * escaping), sent with a CSP that runs no script and loads nothing, behind an unguessable token; entries expire and
 * the store is bounded in count and bytes (oldest first out).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalid, PAGE_CSS } from './render.js';

/** What a front end that serves HTTP mounts for a plugin: read-only pages behind its own access checks. */
export interface GatewayPages {
  /** A route in the gateway's `routes` shape: answers and returns true, or returns false (not its path). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Where the gateway listens (`http://127.0.0.1:<port>`), once it does: links are built on it. */
  bind(origin: string): void;
}

export interface DiffsViewerOptions {
  /** Pages kept at most (oldest dropped first), default 64. */
  readonly maxArtifacts?: number;
  /** Bytes of HTML kept at most, default 64 MiB. */
  readonly maxBytes?: number;
  /** The clock (ms); tests pass their own. */
  readonly now?: () => number;
}

export interface PublishedDiff {
  readonly artifactId: string;
  readonly viewerPath: string;
  readonly viewerUrl: string;
  readonly expiresAt: string;
}

export interface DiffsViewer extends GatewayPages {
  /** Whether a front end mounted the viewer (bound it to its origin): only then is `mode: "view"` offered. */
  readonly mounted: boolean;
  /** Keeps `html` for `ttlSeconds` and answers where it is served (`baseUrl` overrides the bound origin). */
  publish(html: string, ttlSeconds: number, baseUrl?: string): PublishedDiff;
}

export const VIEWER_PREFIX = '/plugins/diffs/';
export const DEFAULT_TTL_SECONDS = 1800;
export const MAX_TTL_SECONDS = 21_600;

/** The page's policy: no script (even one that slipped through: `sandbox` without `allow-scripts`), only our style. */
export const VIEWER_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  'sandbox',
].join('; ');

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': VIEWER_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
} as const;

const VIEW_PATH = /^\/plugins\/diffs\/view\/([0-9a-f]{24})\/([A-Za-z0-9_-]{43})$/;

interface Entry {
  readonly token: Buffer;
  readonly html: string;
  readonly bytes: number;
  readonly expiresAt: number;
}

export function createDiffsViewer(options: DiffsViewerOptions = {}): DiffsViewer {
  const maxArtifacts = options.maxArtifacts ?? 64;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>(); // insertion order: oldest first
  let bytes = 0;
  let origin: string | undefined;

  const drop = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    bytes -= entry.bytes;
  };
  const sweep = () => {
    for (const [id, entry] of entries) if (entry.expiresAt <= now()) drop(id);
  };
  const lookup = (id: string, token: string): Entry | undefined => {
    const entry = entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) return void drop(id);
    const given = Buffer.from(token);
    return given.length === entry.token.length && timingSafeEqual(given, entry.token) ? entry : undefined;
  };

  return {
    get mounted() {
      return origin !== undefined;
    },
    bind(at) {
      origin = normalizeBaseUrl(at);
    },
    publish(html, ttlSeconds, baseUrl) {
      const base = baseUrl === undefined ? origin : normalizeBaseUrl(baseUrl);
      if (base === undefined) throw invalid('mode "view" needs a gateway serving the viewer, and none is mounted');
      const size = Buffer.byteLength(html);
      if (size > maxBytes) throw invalid(`the page is ${size} bytes, more than the viewer keeps (${maxBytes})`);
      sweep();
      for (const id of entries.keys()) {
        if (entries.size < maxArtifacts && bytes + size <= maxBytes) break;
        drop(id);
      }
      const artifactId = randomBytes(12).toString('hex');
      const token = randomBytes(32).toString('base64url');
      const expiresAt = now() + Math.min(Math.max(1, ttlSeconds), MAX_TTL_SECONDS) * 1000;
      entries.set(artifactId, { token: Buffer.from(token), html, bytes: size, expiresAt });
      bytes += size;
      const viewerPath = `${VIEWER_PREFIX}view/${artifactId}/${token}`;
      return {
        artifactId,
        viewerPath,
        viewerUrl: `${base}${viewerPath}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },
    handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://viewer').pathname;
      if (!path.startsWith(VIEWER_PREFIX)) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        res.end('The diff viewer is read-only.\n');
        return true;
      }
      const match = VIEW_PATH.exec(path);
      const entry = match ? lookup(match[1]!, match[2]!) : undefined;
      if (!entry) {
        // One answer for unknown, expired and wrong-token pages: nothing tells them apart.
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end('No such diff (it may have expired).\n');
        return true;
      }
      res.writeHead(200, { ...HEADERS, 'content-length': entry.bytes });
      res.end(req.method === 'HEAD' ? undefined : entry.html);
      return true;
    },
  };
}

/** An http(s) origin, optionally with a base path: no credentials, query or hash; no trailing slash. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw invalid(`baseUrl ${JSON.stringify(value)} is not a URL`, error);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || /[?#]/.test(value))
    throw invalid('baseUrl must be an http(s) origin or origin + path, without credentials, query or hash');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
