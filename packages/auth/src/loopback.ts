/**
 * The browser guard of a keyless front end. Without keys a server listens on
 * loopback only, but a web page open on the same machine can still reach it:
 * by DNS rebinding (its own name, resolved to 127.0.0.1, so the `Host` is that
 * name) or by a cross-site request (its `Origin` is the page's site). A request
 * is served only when its `Host` is a loopback name or address and its
 * `Origin`, if any, is a loopback origin. The port is not compared: a browser
 * always sends the port it connected to, and port forwards (`ssh -L`) change it. An absolute-form request target
 * (`POST http://evil.example/v1/…`, as sent to a proxy) names the authority the request is for, so it is held to
 * the same rule as the Host header (RFC 9112 §3.2.2: it wins over Host).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from './errors.js';

/** `host[:port]` as browsers send it: no user info, path or spaces the URL parser would read past. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;
const SCHEME = /^https?:\/\//i;

/** Whether `host` (a bind address, a `Host` header, an `http(s)://host[:port]` origin) names this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  const name = hostnameOf(host);
  if (name === 'localhost' || name === '[::1]') return true;
  // The URL parser has already turned 0x7f000001, 2130706433 or 127.1 into dotted form.
  return isIPv4(name) && name.startsWith('127.');
}

/** Which header makes a request a web page's (`host` or `origin`), or undefined when it may be served keyless. */
export function foreignBrowserHeader(headers: IncomingHttpHeaders, target?: string): 'host' | 'origin' | undefined {
  if (!headers.host || !isLoopbackHost(headers.host)) return 'host';
  if (target !== undefined && !target.startsWith('/') && !isLoopbackHost(authorityOf(target))) return 'host';
  // `null` (a sandboxed frame, a file: page) and any other site are refused.
  const origin = headers.origin;
  if (origin !== undefined && !(SCHEME.test(origin) && isLoopbackHost(origin))) return 'origin';
  return undefined;
}

/** Throws `AUTH_NOT_LOOPBACK` (HTTP 403) for a request a keyless loopback server must refuse (see above). */
export function assertLoopbackRequest(headers: IncomingHttpHeaders, target?: string): void {
  const header = foreignBrowserHeader(headers, target);
  if (header === undefined) return;
  throw new ToolSearchError(
    AuthErrors.AUTH_NOT_LOOPBACK,
    header === 'host'
      ? 'Refused: the Host header does not name this loopback server (DNS rebinding?); use 127.0.0.1, [::1] or localhost, or configure auth.keys'
      : 'Refused: the request comes from a web page on another site (its Origin is not a loopback origin); configure auth.keys to serve other clients',
    { details: { header, value: headers[header] ?? null } },
  );
}

/** The `host[:port]` of an absolute-form target (`http://host:port/path`), or '' for anything else (`*`, authority-form). */
function authorityOf(target: string): string {
  const match = /^https?:\/\/([^/?#]*)/i.exec(target);
  return match?.[1] ?? '';
}

function hostnameOf(value: string): string {
  const host = isIPv6(value) ? `[${value}]` : value.replace(SCHEME, '');
  if (!HOST.test(host)) return '';
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}
