/**
 * Readable content from a fetched page: Readability (Firefox's reader view)
 * picks the main content out of the HTML, parsed by linkedom (a small DOM
 * without a browser); turndown turns that HTML into markdown. Plain text,
 * JSON and XML are returned as they are.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';

export type ExtractMode = 'markdown' | 'text';

export interface Extracted {
  readonly title?: string;
  readonly text: string;
  /** `readability`, `html` (Readability found no article: the whole body), or `raw` (not HTML). */
  readonly extractor: 'readability' | 'html' | 'raw';
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form']);

export function extractContent(body: string, contentType: string, mode: ExtractMode): Extracted {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const html = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /^\s*<(!doctype html|html)/i.test(body));
  if (!html) {
    if (type && !/^text\/|\/json$|\+json$|\/xml$|\+xml$|^application\/javascript$/.test(type)) {
      throw new ToolSearchError(ErrorCode.FETCH_FAILED, `web_fetch cannot read ${type} content; it reads HTML, text, JSON and XML`, { details: { rule: 'contentType', contentType: type } });
    }
    return { text: body, extractor: 'raw' };
  }
  const { document } = parseHTML(body);
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200 }).parse();
  const title = clean(article?.title ?? document.querySelector('title')?.textContent ?? '') || undefined;
  if (article?.content) {
    const text = mode === 'markdown' ? turndown.turndown(article.content) : clean(article.textContent ?? '');
    if (text.trim()) return { ...(title ? { title } : {}), text, extractor: 'readability' };
  }
  const fallback = parseHTML(body).document;
  for (const node of fallback.querySelectorAll('script, style, noscript')) node.remove();
  const bodyHtml = fallback.body?.innerHTML ?? body;
  const text = mode === 'markdown' ? turndown.turndown(bodyHtml) : clean(fallback.body?.textContent ?? '');
  return { ...(title ? { title } : {}), text, extractor: 'html' };
}

/** Collapses runs of spaces and blank lines, as reader views do. */
function clean(text: string): string {
  return text.replace(/[ \t\u00a0]+/g, ' ').replace(/\s*\n\s*\n\s*/g, '\n\n').trim();
}
