/**
 * Pages built to freeze the event loop. HTML extraction runs in a worker under the fetch's deadline, so web_fetch
 * answers within it (with bounded text or a coded error) while other calls and timers keep running. The gap probe
 * bounds how long the event loop was blocked, generously (a loaded CI machine); it is not a speed assertion on
 * the feature itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ToolSearchError, type Run, type ToolCallOutcome } from '@tool-search/kernel';
import { WebErrors, webPlugin } from '../src/index.js';
import { createExtractor } from '../src/extract.js';
import { markupShape, strippedText, clean, MAX_DEPTH } from '../src/extract-worker.mjs';
import { ARTICLE, serve, type TestServer } from './serve.js';

const nested = (depth: number, inner = 'The tide came in over the nested walls. '.repeat(4)) =>
  `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}</body></html>`;
// 1,000 nested divs (11 KB) took 43 s in Readability; 30,000 (330 KB) took 3.9 s in linkedom's parse alone.
const PAGES: Record<string, string> = {
  '/nested-1k': nested(1_000),
  '/nested-30k': nested(30_000),
  // Just under the depth bound, wide: Readability runs, bounded by the element count and the deadline.
  '/wide': `<!doctype html><html><body>${Array.from({ length: 300 }, () => `${'<div>'.repeat(MAX_DEPTH - 8)}word ${'</div>'.repeat(MAX_DEPTH - 8)}`).join('')}</body></html>`,
  // Under every bound: Readability runs, and the deadline decides (its text or the stripped one).
  '/under-budget': `<!doctype html><html><body>${Array.from({ length: 12 }, () => `${'<div>'.repeat(90)}word ${'</div>'.repeat(90)}`).join('')}</body></html>`,
  '/unclosed': `<!doctype html><html><body>${'<div><span>'.repeat(20_000)}text</body></html>`,
  '/no-gt': `<!doctype html><html><body>${'<a<title<script'.repeat(40_000)}</body></html>`,
  '/cr-run': `<!doctype html><html><body><p>a${'\r'.repeat(500_000)}b</p></body></html>`,
};

let server: TestServer;
let run: Run;
const TIMEOUT_SECONDS = 5;

beforeAll(async () => {
  const routes = Object.fromEntries(
    Object.entries(PAGES).map(([path, html]) => [
      path,
      (_req: unknown, res: import('node:http').ServerResponse) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(html),
    ]),
  );
  server = await serve({
    ...routes,
    '/cheap': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('cheap answer'),
  });
  const kernel = createKernel({
    plugins: [
      webPlugin({
        web: { fetch: { allowPrivate: true, timeoutSeconds: TIMEOUT_SECONDS, cacheTtlMinutes: 0 } },
        env: {},
      }),
    ],
  });
  run = await kernel.createRun({});
});
afterAll(async () => {
  await run.close();
  await server.close();
});

const json = (outcome: ToolCallOutcome) => {
  if (outcome.status !== 'ok') return { error: outcome.status === 'error' ? outcome.error.code : outcome.status };
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as Record<string, unknown>;
};

/** Runs `work` while a 20 ms interval measures the longest gap between its ticks. */
async function withGapProbe<T>(work: () => Promise<T>): Promise<{ value: T; maxGapMs: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 20);
  try {
    return { value: await work(), maxGapMs };
  } finally {
    clearInterval(probe);
  }
}

describe('web_fetch on hostile pages keeps the event loop free', () => {
  it.each(Object.keys(PAGES))(
    '%s: answers within the deadline, a concurrent call is served meanwhile',
    async (path) => {
      const started = performance.now();
      const { value, maxGapMs } = await withGapProbe(async () => {
        const hostile = run.call('web_fetch', { url: `${server.url}${path}`, extractMode: 'markdown' });
        const cheap = await run.call('web_fetch', { url: `${server.url}/cheap` });
        return { hostile: json(await hostile), cheap: json(cheap) };
      });
      expect(value.cheap.text).toBe('cheap answer');
      // Bounded text (extractor and `bounded` say how) or a coded error; never a hang past the deadline.
      if ('error' in value.hostile) expect(value.hostile.error).toBe('WEB_EXTRACT_FAILED');
      else expect(typeof value.hostile.text).toBe('string');
      if (path === '/wide') expect(value.hostile).toMatchObject({ extractor: 'stripped', bounded: 'elements' });
      expect(performance.now() - started).toBeLessThan((TIMEOUT_SECONDS + 10) * 1000);
      expect(maxGapMs).toBeLessThan(1_500);
    },
    120_000,
  );

  it('a page nested past the depth bound is reduced to its text without a DOM, and says so', async () => {
    const result = json(await run.call('web_fetch', { url: `${server.url}/nested-30k`, extractMode: 'text' }));
    expect(result).toMatchObject({ extractor: 'stripped', bounded: 'depth', title: 'Deep' });
    expect(result.text).toContain('The tide came in over the nested walls.');
  }, 120_000);
});

describe('the extractor at its deadline', () => {
  it('returns the stripped text or WEB_EXTRACT_FAILED when the deadline passes, then extracts the next page normally', async () => {
    const extractor = createExtractor();
    try {
      const outcome = await extractor
        .extractHtml(PAGES['/under-budget']!, 'markdown', 0, new AbortController().signal)
        .catch((error: unknown) => error);
      if (ToolSearchError.isInstance(outcome)) expect(outcome.code).toBe(WebErrors.WEB_EXTRACT_FAILED);
      else expect(outcome).toMatchObject({ extractor: 'stripped', bounded: 'deadline' });
      expect(await extractor.extractHtml(ARTICLE, 'markdown', 60_000, new AbortController().signal)).toMatchObject({
        extractor: 'readability',
        title: 'Tide tables for Brest',
      });
    } finally {
      await extractor.close();
    }
  }, 120_000);
});

describe('the linear helpers of the worker', () => {
  it('estimate nesting depth and element count from markup, ignoring void and implicitly closed elements for depth', () => {
    expect(markupShape(nested(40))).toEqual({ depth: 42, elements: 44 }); // html, head, title, body, 40 divs
    expect(markupShape(`<ul>${'<li>item'.repeat(5_000)}</ul><p>a<p>b<br><img src=x>`)).toEqual({
      depth: 1,
      elements: 5_005,
    });
    expect(markupShape('<div><script>"<div><div><div>"</script></div>').depth).toBe(1);
  });

  it('strip tags, scripts and entities, and collapse whitespace', () => {
    expect(
      strippedText(
        '<html><head><title>T &amp; U</title></head><body><script>x<1</script><p>a&nbsp;b</p><p>c &#x41;</p></body></html>',
      ),
    ).toEqual({
      title: 'T & U',
      text: 'a b\nc A',
    });
    expect(clean('a \r\r\r\n\n\n   b')).toBe('a\n\nb');
  });
});
