// Decompression bombs (issue #40, item 5): a PDF of a few hundred KB whose one content stream inflates to hundreds of
// MB of zeros. Before, pdf.js decoded it on the event loop into one growing typed array (512 MB of zeros: +1.1 GB of
// RSS, the loop blocked for seconds; a 2 MB file: +4.2 GB for 39 s). Now pdf.js runs in a worker that charges every
// typed array it allocates to `maxDecodedMb`, and the call answers PDF_TOO_LARGE_DECODED with memory bounded.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { pdfPlugin } from '../src/index.js';
import { MAX_WORKERS } from '../src/parse.js';
import { PdfErrors } from '../src/errors.js';

const MB = 1024 * 1024;
const BOMB_MB = 512;
let workspace: string;

/** `pages` pages whose content stream is `mb` MB of zeros, deflated (about 1 KB per MB). */
async function bomb(mb: number, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Deflated a megabyte at a time: the test itself never holds the inflated size.
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(MB);
  for (let i = 0; i < mb; i++) deflate.write(zeros);
  deflate.end();
  await once(deflate, 'end');
  const packed = Buffer.concat(chunks);
  for (let i = 0; i < pages; i++) {
    const stream = doc.context.stream(packed, { Filter: 'FlateDecode', Length: packed.length });
    doc.addPage().node.set(PDFName.of('Contents'), doc.context.register(stream));
  }
  return doc.save({ useObjectStreams: false });
}

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-bomb-')));
  writeFileSync(join(workspace, 'bomb.pdf'), await bomb(BOMB_MB));
  writeFileSync(join(workspace, 'pages.pdf'), await bomb(100, 10));
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/**
 * Runs `call` while sampling this process's RSS (worker threads included) every 20 ms: the largest growth seen, the
 * growth left after, and the growth of this thread's array buffers (pdf.js on the event loop kept 1 GB there).
 */
async function rssGrowth<T>(
  call: () => Promise<T>,
): Promise<{ value: T; peakMb: number; afterMb: number; arrayBuffersMb: number }> {
  const { rss: before, arrayBuffers } = process.memoryUsage();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const value = await call();
    const after = process.memoryUsage();
    peak = Math.max(peak, after.rss);
    return {
      value,
      peakMb: (peak - before) / MB,
      afterMb: (after.rss - before) / MB,
      arrayBuffersMb: (after.arrayBuffers - arrayBuffers) / MB,
    };
  } finally {
    clearInterval(sampler);
  }
}

describe('pdf against a decompression bomb', () => {
  it(`answers PDF_TOO_LARGE_DECODED for ${BOMB_MB} MB of deflated zeros, with memory bounded`, async () => {
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace })] });
    const run = await kernel.createRun();
    const { value, peakMb, afterMb, arrayBuffersMb } = await rssGrowth(() => run.call('pdf', { path: 'bomb.pdf' }));
    if (process.env.PDF_BOMB_REPORT)
      console.log(
        `bomb: RSS +${peakMb.toFixed(0)} MB at peak, +${afterMb.toFixed(0)} MB after, arrayBuffers +${arrayBuffersMb.toFixed(0)} MB`,
      );
    await kernel.close();
    expect(value).toMatchObject({
      status: 'error',
      error: { code: PdfErrors.PDF_TOO_LARGE_DECODED },
    });
    // The budget is 256 MB of allocations; the worker's heap and pdf.js's own add to it. Before: +1,100 MB.
    expect(peakMb).toBeLessThan(400);
    expect(afterMb).toBeLessThan(400);
    expect(arrayBuffersMb).toBeLessThan(400);
  });

  it('charges every page to one budget: ten pages of 100 MB each are refused too', async () => {
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace })] });
    const run = await kernel.createRun();
    const { value, peakMb } = await rssGrowth(() => run.call('pdf', { path: 'pages.pdf' }));
    await kernel.close();
    expect(value).toMatchObject({ status: 'error', error: { code: PdfErrors.PDF_TOO_LARGE_DECODED } });
    expect(peakMb).toBeLessThan(400);
  });

  it(`parses at most ${MAX_WORKERS} documents at once: six bombs together cost what ${MAX_WORKERS} do`, async () => {
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace })] });
    const run = await kernel.createRun();
    const calls = () => Promise.all(Array.from({ length: 6 }, () => run.call('pdf', { path: 'bomb.pdf' })));
    const { value, peakMb } = await rssGrowth(calls);
    await kernel.close();
    if (process.env.PDF_BOMB_REPORT) console.log(`6 bombs at once: RSS +${peakMb.toFixed(0)} MB at peak`);
    for (const outcome of value)
      expect(outcome).toMatchObject({ status: 'error', error: { code: PdfErrors.PDF_TOO_LARGE_DECODED } });
    // Without the limit, six workers of ~250 MB each: +1.5 GB.
    expect(peakMb).toBeLessThan(400 * MAX_WORKERS);
  }, 120_000);

  it('stops a parse that outlasts timeoutSeconds with PDF_TIMEOUT', async () => {
    // Inflating 512 MB in pdf.js's JavaScript takes seconds; a deadline of 0.1 s cannot be met.
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace, maxDecodedMb: 4096, timeoutSeconds: 0.1 })] });
    const run = await kernel.createRun();
    expect(await run.call('pdf', { path: 'bomb.pdf' })).toMatchObject({
      status: 'error',
      error: { code: PdfErrors.PDF_TIMEOUT },
    });
    await kernel.close();
  });

  it('keeps a worker for the next document after a refused one', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    writeFileSync(join(workspace, 'blank.pdf'), await doc.save());
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace, maxDecodedMb: 1 })] });
    const run = await kernel.createRun();
    expect(await run.call('pdf', { path: 'bomb.pdf' })).toMatchObject({ status: 'error' });
    expect(await run.call('pdf', { path: 'blank.pdf' })).toMatchObject({ status: 'ok' });
    await kernel.close();
  });
});
