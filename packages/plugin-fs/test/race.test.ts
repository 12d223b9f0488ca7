// A process inside the workspace (what a concurrent `exec` could run) swaps a folder for a symlink to outside as
// fast as it can while the file tools work below that folder. A check-then-open implementation lands some writes
// outside (21 of 4,000 measured); the fd-relative walk must land none, and read/edit must never see outside bytes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSymlinkRacer, type SymlinkRacer } from '@tool-search/testing';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { codeOf, fsRun } from './fixtures.js';

let racer: SymlinkRacer | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  racer?.stop();
  await close?.();
});

const WRITES = 4000;
const READS = 500;

if (!confinedAccessIsRaceFree)
  console.warn(
    'skipping the symlink race test: /proc/self/fd is not available, so file access is not fd-relative here',
  );
describe.skipIf(!confinedAccessIsRaceFree)('a racer swapping a folder for a symlink to outside', () => {
  it(`lands none of ${WRITES} writes (and no read, edit or patch) outside the workspace`, async () => {
    const env = await fsRun({ applyPatch: { enabled: true } });
    close = env.close;
    const { ws, outside, run } = env;
    writeFileSync(join(outside, 'secret.txt'), 'SECRET');
    racer = await startSymlinkRacer(ws, outside);

    const outcomes: Record<string, number> = {};
    const count = (key: string) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
    for (let i = 0; i < WRITES; i++) {
      const outcome = await run.call('write', { path: `d/f${i}.txt`, content: 'x' });
      count(outcome.status === 'ok' ? 'ok' : (codeOf(outcome) ?? outcome.status));
    }
    const seen: string[] = [];
    for (let i = 0; i < READS; i++) {
      const read = await run.call('read', { path: 'd/secret.txt' });
      if (read.status === 'ok') seen.push(JSON.stringify(read.result));
      await run.call('edit', { path: 'd/secret.txt', oldText: 'SECRET', newText: 'PWNED' });
      await run.call('apply_patch', {
        input: ['*** Begin Patch', '*** Delete File: d/secret.txt', '*** End Patch'].join('\n'),
      });
      await run.call('apply_patch', {
        input: ['*** Begin Patch', `*** Add File: d/p${i}.txt`, '+x', '*** End Patch'].join('\n'),
      });
    }
    racer.stop();

    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(seen.filter((s) => s.includes('SECRET'))).toEqual([]);
    // The tools kept answering with a result or a coded error, and some writes did get through.
    expect(Object.keys(outcomes).every((key) => /^[A-Z_]+$/.test(key) || key === 'ok')).toBe(true);
    expect(outcomes.ok ?? 0).toBeGreaterThan(0);
  }, 600_000);
});
