/**
 * Where an image comes from: a workspace file, read through `@tool-search/workspace`'s fd-relative walk (a folder
 * swapped for a symlink mid-call cannot redirect the read outside), or an http(s) URL fetched under `web_fetch`'s
 * address rules (`@tool-search/net-guard`: public unicast only unless `allowPrivate`, checked on the address the
 * connection uses and again after every redirect). Both are bounded by `maxBytes` and sniffed by magic bytes.
 */
import { Agent, request } from 'undici';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { checkHost, guardedLookup, type AddressRule } from '@tool-search/net-guard';
import { openInWorkspace, readAtMost } from '@tool-search/workspace';
import { WorkspaceErrors } from '@tool-search/workspace';
import { NetGuardErrors } from '@tool-search/net-guard';
import { ImageErrors } from './errors.js';

export interface LoadedImage {
  readonly mime: string;
  readonly data: Buffer;
  /** The workspace path, or the URL as given. */
  readonly source: string;
  /** The URL the bytes came from after redirects (URLs only). */
  readonly finalUrl?: string;
}

export const IMAGE_URL_RULE: AddressRule = { tool: 'image', setting: 'tools.web.fetch.allowPrivate' };
const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isUrl(input: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(input);
}

export async function readWorkspaceImage(root: string, input: string, maxBytes: number): Promise<LoadedImage> {
  const opened = await openInWorkspace(root, input);
  if (!opened)
    throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `No image file at ${input}`, {
      details: { path: input },
    });
  try {
    const data = await readAtMost(opened.handle, maxBytes, (size) => tooLarge(input, size, maxBytes));
    return { mime: mimeOf(data, input), data, source: opened.relative };
  } finally {
    await opened.handle.close();
  }
}

/** A fetcher for image URLs; `allowPrivate` lifts the address rule as `tools.web.fetch.allowPrivate` does for web_fetch. */
export function createUrlLoader(allowPrivate: boolean, timeoutSeconds = 30) {
  const agent = new Agent(allowPrivate ? {} : { connect: { lookup: guardedLookup(IMAGE_URL_RULE) } });
  async function load(input: string, maxBytes: number, signal: AbortSignal): Promise<LoadedImage> {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutSeconds * 1000)]);
    let current = await checkUrl(input, allowPrivate);
    for (let hop = 0; ; hop++) {
      const response = await request(current, {
        method: 'GET',
        dispatcher: agent,
        signal: deadline,
        headers: { accept: 'image/png,image/jpeg,image/gif,image/webp,*/*;q=0.5' },
      }).catch((error: unknown) => {
        throw fetchError(input, current, error);
      });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        await response.body.dump();
        if (hop >= MAX_REDIRECTS)
          throw new ToolSearchError(
            NetGuardErrors.FETCH_FAILED,
            `image gave up on ${input} after ${MAX_REDIRECTS} redirects`,
            { details: { rule: 'maxRedirects', url: input } },
          );
        current = await checkUrl(new URL(location, current).href, allowPrivate);
        continue;
      }
      if (response.statusCode >= 400) {
        await response.body.dump();
        throw new ToolSearchError(
          NetGuardErrors.FETCH_FAILED,
          `image got HTTP ${response.statusCode} from ${current.href}`,
          { details: { rule: 'status', url: input, status: response.statusCode } },
        );
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body.dump().catch(() => undefined); // draining a body we refuse; the tooLarge error below is what counts
        throw tooLarge(input, declared, maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            response.body.destroy();
            throw tooLarge(input, size, maxBytes);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        throw fetchError(input, current, error);
      }
      const data = Buffer.concat(chunks);
      return { mime: mimeOf(data, input), data, source: input, finalUrl: current.href };
    }
  }
  return { load, close: () => agent.close() };
}

async function checkUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolSearchError(
      NetGuardErrors.URL_NOT_ALLOWED,
      `image needs a workspace path or an absolute http(s) URL, got ${JSON.stringify(raw.slice(0, 200))}`,
      { details: { rule: 'url', url: raw.slice(0, 200) } },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolSearchError(NetGuardErrors.URL_NOT_ALLOWED, `image fetches only http(s) URLs, not ${url.protocol}`, {
      details: { rule: 'scheme', url: url.href },
    });
  if (url.username || url.password)
    throw new ToolSearchError(NetGuardErrors.URL_NOT_ALLOWED, 'image does not send credentials embedded in a URL', {
      details: { rule: 'credentials', url: `${url.protocol}//${url.host}` },
    });
  if (!allowPrivate) await checkHost(url.hostname, IMAGE_URL_RULE);
  return url;
}

function fetchError(input: string, current: URL, error: unknown): ToolSearchError {
  if (ToolSearchError.isInstance(error)) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (ToolSearchError.isInstance(cause)) return cause;
  return new ToolSearchError(
    NetGuardErrors.FETCH_FAILED,
    `image could not fetch ${current.href}: ${errorMessage(error)}`,
    { details: { rule: 'network', url: input }, cause: error },
  );
}

function tooLarge(input: string, size: number, maxBytes: number): ToolSearchError {
  return new ToolSearchError(
    ImageErrors.IMAGE_UNREADABLE,
    `${input} is ${size} bytes or more; the image tool sends at most ${maxBytes}`,
    { details: { rule: 'maxBytesMb', path: input, size, maxBytes } },
  );
}

function mimeOf(data: Buffer, input: string): string {
  const mime = sniff(data);
  if (!mime)
    throw new ToolSearchError(ImageErrors.IMAGE_UNREADABLE, `${input} is not a PNG, JPEG, GIF or WebP image`, {
      details: { rule: 'format', path: input },
    });
  return mime;
}

/** The image type from its magic bytes. */
function sniff(b: Buffer): string | undefined {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}
