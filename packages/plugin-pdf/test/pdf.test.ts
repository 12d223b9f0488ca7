import { mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Run } from '@tool-search/kernel';
import { parsePageRanges, pdfPlugin } from '../src/index.js';
import { WorkspaceErrors } from '@tool-search/workspace';
import { PdfErrors } from '../src/errors.js';

let workspace: string;
let run: Run;

/** A real PDF, one text line per page, made with pdf-lib. */
async function makePdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const line of lines) doc.addPage().drawText(line, { x: 50, y: 700, size: 14, font });
  return doc.save();
}

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-ws-')));
  writeFileSync(
    join(workspace, 'invoice.pdf'),
    await makePdf(['Invoice 2025-001 total 420 EUR', 'Payment due in 30 days', 'Thank you']),
  );
  writeFileSync(
    join(workspace, 'long.pdf'),
    await makePdf(Array.from({ length: 30 }, (_, i) => `Page number ${i + 1}`)),
  );
  writeFileSync(join(workspace, 'broken.pdf'), 'this is not a pdf');
  const outside = mkdtempSync(join(tmpdir(), 'pdf-out-'));
  writeFileSync(join(outside, 'secret.pdf'), await makePdf(['secret']));
  symlinkSync(join(outside, 'secret.pdf'), join(workspace, 'link.pdf'));
  run = await createKernel({ plugins: [pdfPlugin({ workspace, maxPages: 20 })] }).createRun({});
});

const parsed = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return JSON.parse((outcome.result.content[0] as { text: string }).text) as {
    pageCount: number;
    pages: { page: number; text: string }[];
    truncated: boolean;
  };
};

describe('pdf', () => {
  it('reads every page and the page count', async () => {
    const result = parsed(await run.call('pdf', { path: 'invoice.pdf' }));
    expect(result.pageCount).toBe(3);
    expect(result.pages.map((p) => p.text)).toEqual([
      'Invoice 2025-001 total 420 EUR',
      'Payment due in 30 days',
      'Thank you',
    ]);
    expect(result.truncated).toBe(false);
  });

  it('reads the pages asked for', async () => {
    expect(parsed(await run.call('pdf', { path: 'invoice.pdf', pages: '2-3' })).pages.map((p) => p.page)).toEqual([
      2, 3,
    ]);
  });

  it('reads at most maxPages and says it was cut', async () => {
    const result = parsed(await run.call('pdf', { path: 'long.pdf' }));
    expect(result).toMatchObject({ pageCount: 30, truncated: true });
    expect(result.pages).toHaveLength(20);
  });

  it.each([
    ['not a PDF', 'broken.pdf', PdfErrors.PDF_UNREADABLE],
    ['a missing file', 'missing.pdf', WorkspaceErrors.FILE_NOT_FOUND],
    ['a path out of the workspace', '../x.pdf', WorkspaceErrors.PATH_OUTSIDE_WORKSPACE],
    ['a symlink out of the workspace', 'link.pdf', WorkspaceErrors.PATH_OUTSIDE_WORKSPACE],
  ])('refuses %s', async (_name, path, code) => {
    expect(await run.call('pdf', { path })).toMatchObject({ status: 'error', error: { code } });
  });

  it('refuses a file over maxBytesMb before parsing it', async () => {
    const small = await createKernel({ plugins: [pdfPlugin({ workspace, maxBytesMb: 0.0001 })] }).createRun({});
    expect(await small.call('pdf', { path: 'invoice.pdf' })).toMatchObject({
      status: 'error',
      error: { code: PdfErrors.PDF_UNREADABLE },
    });
  });

  it('parses page ranges, clamped and de-duplicated', () => {
    expect(parsePageRanges('3-1,2,2,9-12', 10)).toEqual([2, 9, 10]);
    expect(parsePageRanges(undefined, 3)).toEqual([1, 2, 3]);
  });
});
