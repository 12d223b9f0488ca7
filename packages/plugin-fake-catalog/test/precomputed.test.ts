/**
 * The built package reads the default seed's tools from `dist/fake-tools.json` (written by the postbuild) instead of
 * generating them at every start: the file must say exactly what the generator says, and a file that no longer
 * matches the built generator must be ignored.
 */
import { appendFileSync, copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fakeCatalogPlugin, generateFakeTool } from '../src/index.js';
import type { ToolDefinition } from '@tool-search/kernel';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const FILES = ['precomputed.js', 'generate.js', 'domains.js', 'fake-tools.json'];
const built = FILES.every((file) => existsSync(join(DIST, file)));
if (!built)
  console.warn(
    `skipping the precomputed-catalog checks: ${DIST} lacks ${FILES.join(', ')} (run node scripts/build.mjs at the repository root)`,
  );

type Precomputed = typeof import('../src/precomputed.js');
const load = (dir: string): Promise<Precomputed> =>
  import(pathToFileURL(join(dir, 'precomputed.js')).href) as Promise<Precomputed>;

/** A copy of the built files in a fresh folder, so each import gets its own module (and its own cache). */
function copyDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-catalog-'));
  for (const file of FILES) copyFileSync(join(DIST, file), join(dir, file));
  // vitest reads the source map of what it imports.
  if (existsSync(join(DIST, 'precomputed.js.map')))
    copyFileSync(join(DIST, 'precomputed.js.map'), join(dir, 'precomputed.js.map'));
  return dir;
}

function listed(plugin: ReturnType<typeof fakeCatalogPlugin>): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  plugin.apply({
    hooks: {
      listTools: { tap: (fn: (sink: unknown) => void) => fn({ add: (d: ToolDefinition[]) => tools.push(...d) }) },
    },
  } as never);
  return tools;
}

describe.skipIf(!built)('the precomputed demo tools (skipped until built)', () => {
  it('are exactly what the generator makes for seed 1, and a smaller catalog is their prefix', async () => {
    const { precomputedTools } = await load(DIST);
    const generated = Array.from({ length: 1000 }, (_, i) => generateFakeTool(i + 1, 1));
    expect(precomputedTools(1, 1000)).toEqual(generated);
    expect(precomputedTools(1, 50)).toEqual(generated.slice(0, 50));
  });

  it('give the built plugin the same definitions as the sources', async () => {
    const dist = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as typeof import('../src/index.js');
    const strip = (tools: ToolDefinition[]) => tools.map(({ execute: _execute, ...rest }) => rest);
    expect(strip(listed(dist.fakeCatalogPlugin({ demoTools: true })))).toEqual(
      strip(listed(fakeCatalogPlugin({ demoTools: true }))),
    );
  });

  it('answer only their own seed and at most their own count', async () => {
    const { precomputedTools } = await load(DIST);
    expect(precomputedTools(2, 10)).toBeUndefined();
    expect(precomputedTools(1, 1001)).toBeUndefined();
  });

  it('are ignored once the built generator changes (a rebuild without the postbuild)', async () => {
    const fresh = copyDist();
    expect((await load(fresh)).precomputedTools(1, 3)).toHaveLength(3);
    const stale = copyDist();
    appendFileSync(join(stale, 'domains.js'), '\n// changed\n');
    expect((await load(stale)).precomputedTools(1, 3)).toBeUndefined();
  });

  it('hand out fresh objects: one caller changing a schema does not change the next catalog', async () => {
    const { precomputedTools } = await load(DIST);
    const first = precomputedTools(1, 1)!;
    (first[0]!.inputSchema as { type: string }).type = 'changed';
    expect(precomputedTools(1, 1)![0]!.inputSchema.type).toBe('object');
  });
});
