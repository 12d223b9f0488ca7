// A PDF's page count is the file's word: a 600-byte file whose page tree skips a node claiming billions of pages passes
// pdf.js's last-page check. Before, the host listed every claimed page on the gateway's loop: 50 million took 3.9 s
// and +720 MB of RSS there, and 5 billion threw an uncaught RangeError (the gateway's process would end) while the
// call hung until the deadline. Now at most `maxPages` pages are listed; the rest are counted from ranges.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { pdfPlugin } from '../src/index.js';
import { choosePages } from '../src/pages.js';
import { PdfErrors } from '../src/errors.js';

/** The root claims `count` pages; its first kid claims all but one with no kids (skipped), the last holds one page. */
function claimingPdf(count: number): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${count} /Kids [3 0 R 4 0 R] >>`,
    `<< /Type /Pages /Parent 2 0 R /Count ${count - 1} /Kids [] >>`,
    '<< /Type /Pages /Parent 2 0 R /Count 1 /Kids [5 0 R] >>',
    '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 10 10] >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  return `${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

let workspace: string;
beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-pages-')));
  for (const count of [50_000_000, 5_000_000_000]) writeFileSync(join(workspace, `${count}.pdf`), claimingPdf(count));
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('pdf against a page tree that claims billions of pages', () => {
  it.each([
    ['50 million pages, every page', '50000000.pdf', undefined],
    ['5 billion pages, every page', '5000000000.pdf', undefined],
    ['5 billion pages, pages "1-4000000000"', '5000000000.pdf', '1-4000000000'],
  ])(
    '%s: the call answers a coded error, nothing is thrown on the loop',
    async (_name, path, pages) => {
      const kernel = createKernel({ plugins: [pdfPlugin({ workspace })] });
      const run = await kernel.createRun();
      const outcome = await run.call('pdf', { path, ...(pages ? { pages } : {}) });
      await kernel.close();
      // pdf.js then finds no page 1 (the lying node has no kids): the file is unreadable, and said so.
      expect(outcome).toMatchObject({ status: 'error', error: { code: PdfErrors.PDF_UNREADABLE } });
    },
    60_000,
  );

  it.each([
    [undefined, 5e9, 3, [1, 2, 3], 5e9],
    ['1-4000000000', 5e9, 2, [1, 2], 4e9],
    ['3-1,2,2,9-12', 10, 20, [2, 9, 10], 3],
    ['5-9,1-6,8', 10, 4, [1, 2, 3, 4], 9],
  ])('choosePages(%j, %d, %d) lists %j of %d', (spec, count, max, pages, total) => {
    expect(choosePages(spec, count, max)).toEqual({ pages, total });
  });
});
