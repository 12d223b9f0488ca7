// A process in the workspace grows a PDF between the size check and the read (ftruncate to 64 MB and back, as fast
// as it can). `readFile` read to the end whatever the check saw, so pdf.js got files past `maxBytesMb` (the image
// tool, read the same way, returned 64 MB past a 1,000-byte limit in 61 of 3,000 reads). The read now stops there.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPdfText } from '../src/read.js';
import type { PdfParser } from '../src/parse.js';

const READS = 3000;
const MAX_BYTES = 1000;
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'pdf-grow-')));
let racer: ChildProcess | undefined;
afterAll(() => {
  racer?.kill();
  rmSync(workspace, { recursive: true, force: true });
});

/** A process that keeps growing grows.pdf to 64 MB (sparse) and cutting it back to 100 bytes. */
async function growingFile(): Promise<void> {
  const file = join(workspace, 'grows.pdf');
  writeFileSync(file, Buffer.alloc(100, '%PDF-1.4\n'));
  const loop = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'r+'); console.log('ready');
    for (;;) { fs.ftruncateSync(fd, 100); fs.ftruncateSync(fd, 64 * 1024 * 1024); }`;
  racer = spawn(process.execPath, ['-e', loop], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(racer.stdout!, 'data');
}

describe('pdf reads a file that grows after its size was checked', () => {
  it(`hands pdf.js more than maxBytes in none of ${READS} reads`, async () => {
    await growingFile();
    const handed: number[] = [];
    // Only the bytes that would reach pdf.js are looked at here: the read itself is the real one.
    const parser = {
      parse: async (_input: string, data: Uint8Array) => {
        handed.push(data.length);
        throw new Error('not parsed');
      },
    } as unknown as PdfParser;
    const limits = { maxBytes: MAX_BYTES, maxPages: 1, maxChars: 1, maxDecodedBytes: 1, timeoutMs: 1 };
    const signal = new AbortController().signal;
    for (let i = 0; i < READS; i++)
      await readPdfText(workspace, 'grows.pdf', undefined, limits, false, parser, signal).catch(() => undefined);
    expect(handed.filter((size) => size > MAX_BYTES)).toEqual([]);
    expect(handed.length).toBeGreaterThan(0);
  }, 300_000);
});
