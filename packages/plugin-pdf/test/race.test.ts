// A process inside the workspace swaps a folder for a symlink to outside as fast as it can while `pdf` reads below
// that folder. A check-then-open read (resolve the path, then stat and readFile it) can be redirected between the
// steps; the fd-relative walk of @tool-search/workspace must never read the outside document.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { pdfPlugin } from '../src/index.js';

const RACER = `
const { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync } = require('node:fs');
const [ws, outside] = process.argv.slice(1);
const d = ws + '/d', park = ws + '/parked';
process.send('ready');
for (;;) {
  try { renameSync(d, park); rmSync(park, { recursive: true, force: true }); } catch {}
  try { symlinkSync(outside, d); } catch {}
  try { unlinkSync(d); } catch {}
  try { mkdirSync(d); } catch {}
}`;
const READS = 5000;

let racer: ChildProcess | undefined;
afterEach(() => {
  racer?.kill('SIGKILL');
});

if (!confinedAccessIsRaceFree) console.warn('skipping the pdf symlink race test: /proc/self/fd is not available, so file access is not fd-relative here');
describe.skipIf(!confinedAccessIsRaceFree)('pdf reads under a racer swapping a folder for a symlink to outside', () => {
  it(`reads the outside document in none of ${READS} calls`, async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-race-ws-')));
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-race-out-')));
    const doc = await PDFDocument.create();
    doc.addPage().drawText('SECRET', { x: 50, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    writeFileSync(join(outside, 'secret.pdf'), await doc.save());
    const kernel = createKernel({ plugins: [pdfPlugin({ workspace: ws })] });
    const run = await kernel.createRun();
    racer = spawn(process.execPath, ['-e', RACER, ws, outside], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise((resolve, reject) => racer!.once('message', resolve).once('exit', reject));
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < READS; i++) {
      const outcome = await run.call('pdf', { path: 'd/secret.pdf' });
      const key = outcome.status === 'error' ? outcome.error.code : outcome.status;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    racer.kill('SIGKILL');
    await run.close();
    await kernel.close();
    // Inside, d/ only ever holds nothing: any `ok` read the outside file.
    expect(outcomes.ok ?? 0).toBe(0);
    expect(Object.keys(outcomes).every((key) => /^[A-Z_]+$/.test(key))).toBe(true);
  }, 600_000);
});
