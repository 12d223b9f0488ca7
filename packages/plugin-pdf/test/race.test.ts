// A process inside the workspace swaps a folder for a symlink to outside as fast as it can while `pdf` reads below
// that folder. A check-then-open read (resolve the path, then stat and readFile it) can be redirected between the
// steps; the fd-relative walk of @tool-search/workspace must never read the outside document.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { raceFolders, startSymlinkRacer, type SymlinkRacer } from '@tool-search/testing';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { pdfPlugin } from '../src/index.js';

const READS = 5000;

let racer: SymlinkRacer | undefined;
afterEach(() => {
  racer?.stop();
});

if (!confinedAccessIsRaceFree)
  console.warn(
    'skipping the pdf symlink race test: /proc/self/fd is not available, so file access is not fd-relative here',
  );
describe.skipIf(!confinedAccessIsRaceFree)('pdf reads under a racer swapping a folder for a symlink to outside', () => {
  it(`reads the outside document in none of ${READS} calls`, async () => {
    const { workspace: ws, outside } = raceFolders('pdf-race');
    const doc = await PDFDocument.create();
    doc.addPage().drawText('SECRET', { x: 50, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    writeFileSync(join(outside, 'secret.pdf'), await doc.save());
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace: ws })] });
    const run = await kernel.createRun();
    racer = await startSymlinkRacer(ws, outside);
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < READS; i++) {
      const outcome = await run.call('pdf', { path: 'd/secret.pdf' });
      const key = outcome.status === 'error' ? outcome.error.code : outcome.status;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    racer.stop();
    await run.close();
    await kernel.close();
    // Inside, d/ only ever holds nothing: any `ok` read the outside file.
    expect(outcomes.ok ?? 0).toBe(0);
    expect(Object.keys(outcomes).every((key) => /^[A-Z_]+$/.test(key))).toBe(true);
  }, 600_000);
});
