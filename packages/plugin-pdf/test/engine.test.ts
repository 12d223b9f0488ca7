// pdf.js here is unpdf's build of its modern code (no native canvas, issue 41): on Node 20 the worker first adds the
// built-ins that code calls and Node 20 lacks (pdf-polyfills.mjs). Without them, writing the pages read of a PDF
// with named destinations failed on Node 20 (`f.intersection is not a function`, in extractPages).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';
import { pdfPlugin } from '../src/index.js';

/** Three pages that link to each other by named destination (`/Names /Dests`), plus an outline and a URI link. */
async function linkedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const pages = [1, 2, 3].map((n) => {
    const page = doc.addPage();
    page.drawText(`Chapter ${n}`, { x: 50, y: 700, font });
    return page;
  });
  const { context } = doc;
  const dest = (n: number) => context.obj([pages[n - 1]!.ref, PDFName.of('Fit')]);
  const dests = context.obj({ Names: [PDFString.of('ch1'), dest(1), PDFString.of('ch3'), dest(3)] });
  doc.catalog.set(PDFName.of('Names'), context.obj({ Dests: context.register(dests) }));
  const link = (rect: number[], action: Record<string, unknown>) =>
    context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: rect, Border: [0, 0, 0], ...action }));
  pages[0]!.node.set(
    PDFName.of('Annots'),
    context.obj([
      link([0, 0, 100, 100], { Dest: PDFString.of('ch3') }),
      link([0, 100, 100, 200], { A: { S: 'URI', URI: PDFString.of('https://example.com/') } }),
    ]),
  );
  pages[2]!.node.set(PDFName.of('Annots'), context.obj([link([0, 0, 100, 100], { Dest: PDFString.of('ch1') })]));
  const outline = context.nextRef();
  const item = context.register(
    context.obj({ Title: PDFString.of('Three'), Parent: outline, Dest: PDFString.of('ch3') }),
  );
  context.assign(outline, context.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }));
  doc.catalog.set(PDFName.of('Outlines'), outline);
  return doc.save();
}

let workspace: string;
let anthropic: MockAnthropic;
beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-engine-')));
  writeFileSync(join(workspace, 'linked.pdf'), await linkedPdf());
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await anthropic.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('pdf.js on this Node', () => {
  it('reads, and writes the pages read of, a PDF with named destinations, links and an outline', async () => {
    const model = { kind: 'anthropic' as const, model: 'claude-pdf', baseURL: anthropic.url, apiKey: 'k' };
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace, model })] });
    const run = await kernel.createRun({});
    const outcome = await run.call('pdf', { path: 'linked.pdf', pages: '1,3', prompt: 'Which chapters?' });
    await kernel.close();
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    expect(outcome.result.structuredContent).toMatchObject({
      sentAs: 'pdf',
      documents: [{ path: 'linked.pdf', pageCount: 3, pagesRead: [1, 3] }],
    });
    // The mock read the PDF pdf.js wrote: the two pages asked for.
    expect((outcome.result.content[0] as { text: string }).text).toMatch(
      /linked\.pdf, \d+ bytes, 2 pages: \[1\] "Chapter 1" \[2\] "Chapter 3"/,
    );
  });

  it('the polyfills behave as the built-ins they stand for (checked in a worker: they change its globals)', async () => {
    const url = new URL('../src/pdf-polyfills.mjs', import.meta.url).href;
    const code = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(url)}).then(() => {
        const a = new Set([1, 2, 3]);
        const b = new Set([2, 3, 4]);
        const map = new Map();
        const buffer = new Uint8Array([1, 2, 3, 4]).buffer;
        function* count() { yield 1; yield 2; yield 3; yield 4; }
        parentPort.postMessage({
          sets: [a.union(b), a.intersection(b), a.difference(b), a.symmetricDifference(b)].map((s) => [...s]),
          setTests: [a.isSubsetOf(new Set([1, 2, 3, 4])), a.isSupersetOf(new Set([1])), a.isDisjointFrom(b)],
          iterators: [
            count().map((x) => x * 2).filter((x) => x > 2).toArray(),
            count().drop(1).take(2).toArray(),
            count().flatMap((x) => [x, x]).take(3).toArray(),
            new Map([[1, 'a'], [2, 'b']]).values().some((v) => v === 'b'),
            new Set([5, 6]).keys().find((x) => x > 5),
            count().every((x) => x > 0),
            count().reduce((sum, x) => sum + x),
          ],
          upsert: [map.getOrInsert('k', 1), map.getOrInsert('k', 2), map.getOrInsertComputed('j', (key) => key + '!')],
          transfer: [...new Uint8Array(buffer.transferToFixedLength(2))],
          base64: [new Uint8Array([104, 105]).toBase64(), [...Uint8Array.fromBase64('aGk=')], new Uint8Array([255, 1]).toHex()],
          url: [URL.parse('nope'), URL.parse('/a', 'https://example.com')?.href],
        });
      });`;
    const worker = new Worker(code, { eval: true });
    const result = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(result).toEqual({
      sets: [[1, 2, 3, 4], [2, 3], [1], [1, 4]],
      setTests: [true, true, false],
      iterators: [[4, 6, 8], [2, 3], [1, 1, 2], true, 6, true, 10],
      upsert: [1, 1, 'j!'],
      transfer: [1, 2],
      base64: ['aGk=', [104, 105], 'ff01'],
      url: [null, 'https://example.com/a'],
    });
  });
});
