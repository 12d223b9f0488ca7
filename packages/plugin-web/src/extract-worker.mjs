// The HTML extraction of web_fetch, run in a worker thread (see extract.ts): a page that makes the DOM or
// Readability slow costs this thread, never the event loop that serves everyone else, and the host terminates it
// at the fetch's deadline. Plain JavaScript so the same file runs from `src` (tests) and `dist`.
//
// Bounds, checked before each costly step:
// - nesting depth, estimated by a linear scan of the tags before parsing: linkedom's parse grows with depth × size
//   (30,000 nested <div>s, 330 KB: 3.9 s) and Readability's _cleanConditionally measures the text of every
//   descendant of every <div> (n × d² on nested divs: 11 KB took 43 s). Past MAX_DEPTH the page is reduced to its
//   text by a linear tag stripper instead;
// - element count (counted by the same scan): past MAX_ELEMENTS the stripped text is returned; past
//   READABILITY_BUDGET (elements × depth²) the whole body is converted without Readability.
// A cheap stripped-text result is posted first (`provisional`), so the host has an answer even if the full
// extraction misses the deadline.
import { parentPort } from 'node:worker_threads';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

export const MAX_DEPTH = 128;
export const MAX_ELEMENTS = 30_000;
/** Readability runs only when elements × depth² (its _cleanConditionally cost on nested markup) stays under this. */
export const READABILITY_BUDGET = 10_000_000;

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form']);

// Elements that never nest (void) or that a sibling closes implicitly: they do not deepen the estimate.
const FLAT = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th option optgroup thead tbody tfoot rt rp colgroup caption'.split(
    ' ',
  ),
);
// Every pattern here is linear: a tag's attributes stop at the next `<`, and an unclosed comment or raw-text
// element runs to the end of the input once (no rescan from each later `<`).
const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^<>]*?(\/?)>/g;
const RAW_TEXT = /<(script|style|noscript|template)\b[^<>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;

/**
 * The deepest nesting the markup asks for and how many elements it opens, by one linear scan of the tags (an
 * over-estimate of depth for sloppy markup, never an under-estimate of nested divs).
 */
export function markupShape(html) {
  let depth = 0;
  let max = 0;
  let elements = 0;
  for (const match of html.replace(RAW_TEXT, '').matchAll(TAG)) {
    const name = match[2]?.toLowerCase();
    if (!name) continue;
    if (!match[1]) elements++;
    if (FLAT.has(name) || match[3]) continue;
    if (match[1]) depth = Math.max(0, depth - 1);
    else if (++depth > max) max = depth;
  }
  return { depth: max, elements };
}

/** The page's text without a DOM: raw-text elements dropped, tags removed, common entities decoded. Linear. */
export function strippedText(html) {
  const lower = html.toLowerCase();
  const titleAt = lower.indexOf('<title');
  const titleEnd = titleAt < 0 ? -1 : lower.indexOf('</title', titleAt);
  const title = titleEnd < 0 ? undefined : html.slice(html.indexOf('>', titleAt) + 1, titleEnd);
  const bodyAt = lower.indexOf('<body');
  const body = bodyAt < 0 ? html : html.slice(bodyAt);
  const text = body
    .replace(RAW_TEXT, ' ')
    .replace(/<(?:br|\/p|\/div|\/h[1-6]|\/li|\/tr|\/section|\/article)\b[^<>]*>/gi, '\n')
    .replace(TAG, ' ');
  return { ...(title ? { title: clean(decode(title)) } : {}), text: clean(decode(text)) };
}

export function extractHtml(body, mode, onProvisional = () => {}) {
  const stripped = strippedText(body);
  onProvisional({ ...stripped, extractor: 'stripped', bounded: 'deadline' });
  const { depth, elements } = markupShape(body);
  if (depth > MAX_DEPTH) return { ...stripped, extractor: 'stripped', bounded: 'depth' };
  if (elements > MAX_ELEMENTS) return { ...stripped, extractor: 'stripped', bounded: 'elements' };
  const { document } = parseHTML(body);
  const title = clean(document.querySelector('title')?.textContent ?? '') || undefined;
  const readable = elements * depth * depth <= READABILITY_BUDGET;
  if (readable) {
    const article = new Readability(document, { charThreshold: 200, maxElemsToParse: MAX_ELEMENTS }).parse();
    const articleTitle = clean(article?.title ?? '') || title;
    if (article?.content) {
      const text = mode === 'markdown' ? turndown.turndown(article.content) : clean(article.textContent ?? '');
      if (text.trim()) return { ...(articleTitle ? { title: articleTitle } : {}), text, extractor: 'readability' };
    }
  }
  const fallback = parseHTML(body).document;
  for (const node of fallback.querySelectorAll('script, style, noscript')) node.remove();
  const bodyHtml = fallback.body?.innerHTML ?? body;
  const text = mode === 'markdown' ? turndown.turndown(bodyHtml) : clean(fallback.body?.textContent ?? '');
  return { ...(title ? { title } : {}), text, extractor: 'html', ...(readable ? {} : { bounded: 'elements' }) };
}

/** Collapses runs of spaces and blank lines, as reader views do (line by line: linear on any input). */
export function clean(text) {
  const out = [];
  let blank = false;
  for (const raw of text.replace(/\r\n?|[\f\v\u2028\u2029]/g, '\n').split('\n')) {
    const line = raw.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (!line) {
      blank = out.length > 0;
      continue;
    }
    if (blank) out.push('');
    out.push(line);
    blank = false;
  }
  return out.join('\n');
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decode(text) {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

parentPort?.postMessage({ ready: true });
parentPort?.on('message', ({ id, body, mode }) => {
  try {
    const result = extractHtml(body, mode, (provisional) => parentPort.postMessage({ id, provisional }));
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: { name: error?.name, message: String(error?.message ?? error) } });
  }
});
