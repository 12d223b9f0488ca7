// A process in the workspace grows an image between the size check and the read (ftruncate to 64 MB and back, as
// fast as it can). `readFile` read to the end whatever the check saw: 61 of 3,000 reads returned 64 MB past a
// 1,000-byte limit (up to 2 GB a call on the gateway's heap). The read now stops at the limit.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkspaceImage } from '../src/load.js';

const READS = 3000;
const MAX_BYTES = 1000;
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'image-grow-')));
let racer: ChildProcess | undefined;
afterAll(() => {
  racer?.kill();
  rmSync(workspace, { recursive: true, force: true });
});

/** A 1×1 PNG header in 100 bytes, then a process that keeps growing it to 64 MB (sparse) and cutting it back. */
async function growingPng(): Promise<void> {
  const file = join(workspace, 'grows.png');
  const png = Buffer.alloc(100);
  png.writeUInt32BE(0x89504e47, 0);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(1, 16);
  png.writeUInt32BE(1, 20);
  writeFileSync(file, png);
  const loop = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'r+'); console.log('ready');
    for (;;) { fs.ftruncateSync(fd, 100); fs.ftruncateSync(fd, 64 * 1024 * 1024); }`;
  racer = spawn(process.execPath, ['-e', loop], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(racer.stdout!, 'data');
}

describe('image reads a file that grows after its size was checked', () => {
  it(`returns more than maxBytes in none of ${READS} reads`, async () => {
    await growingPng();
    const sizes = { within: 0, past: 0, refused: 0 };
    for (let i = 0; i < READS; i++) {
      const read = await readWorkspaceImage(workspace, 'grows.png', MAX_BYTES).catch(() => undefined);
      if (!read) sizes.refused++;
      else if (read.data.length > MAX_BYTES) sizes.past++;
      else sizes.within++;
    }
    expect(sizes.past).toBe(0);
    expect(sizes.within).toBeGreaterThan(0);
  }, 300_000);
});
