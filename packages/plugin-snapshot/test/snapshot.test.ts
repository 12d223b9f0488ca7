import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { parseSnapshot, readSnapshotFile, snapshotDescriptors, snapshotPlugin, toSnapshot } from '../src/index.js';
import { SnapshotErrors } from '../src/errors.js';

const catalog = {
  name: 'metadata is ignored',
  tools: [
    {
      id: 'server-a::echo',
      server: 'server-a',
      name: 'echo',
      title: 'Echo',
      description: 'Echoes',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    },
    {
      server: 'server-b',
      name: 'ping',
      description: 'Pings a host',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
  ],
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return ToolSearchError.isInstance(error) ? error.code : 'not coded';
  }
  return undefined;
}

describe('parseSnapshot', () => {
  it('derives <server>::<name> ids when an entry has none', () => {
    expect(parseSnapshot(catalog).tools.map((tool) => tool.id)).toEqual(['server-a::echo', 'server-b::ping']);
  });

  it('rejects a file without a tools array with SNAPSHOT_INVALID', () => {
    expect(codeOf(() => parseSnapshot({ servers: [] }))).toBe(SnapshotErrors.SNAPSHOT_INVALID);
  });

  it('rejects a tool without a server with SNAPSHOT_INVALID', () => {
    expect(codeOf(() => parseSnapshot({ tools: [{ name: 'x', description: '' }] }))).toBe(
      SnapshotErrors.SNAPSHOT_INVALID,
    );
  });

  it('reports an unreadable file with SNAPSHOT_INVALID', () => {
    expect(codeOf(() => readSnapshotFile(join(tmpdir(), 'no-such-snapshot.json')))).toBe(
      SnapshotErrors.SNAPSHOT_INVALID,
    );
  });
});

describe('snapshotDescriptors and toSnapshot', () => {
  it('keeps snapshot ids and file order, owner = server', () => {
    const descriptors = snapshotDescriptors(parseSnapshot(catalog));
    expect(descriptors.map(({ id, owner, source, catalogMode }) => ({ id, owner, source, catalogMode }))).toEqual([
      { id: 'server-a::echo', owner: 'server-a', source: 'mcp', catalogMode: 'catalog' },
      { id: 'server-b::ping', owner: 'server-b', source: 'mcp', catalogMode: 'catalog' },
    ]);
  });

  it('round-trips a snapshot through descriptors', () => {
    const snapshot = parseSnapshot(catalog);
    const again = parseSnapshot(JSON.parse(JSON.stringify(toSnapshot(snapshotDescriptors(snapshot)))));
    expect(again.tools).toEqual(snapshot.tools.map((tool) => ({ ...tool, source: 'mcp' })));
  });
});

describe('snapshotPlugin', () => {
  it('lists the snapshot tools in a run, owner = server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-'));
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    const kernel = createKernel({ plugins: [snapshotPlugin({ file: join(dir, 'catalog.json') })] });
    const run = await kernel.createRun({});
    expect(run.catalog.map((tool) => tool.id)).toEqual(['mcp:server-a:echo', 'mcp:server-b:ping']);
    await kernel.close();
  });
});

describe('snapshotPlugin with a bad file', () => {
  it('fails only its own source: the run opens with a SOURCE_FAILED diagnostic', async () => {
    const kernel = createKernel({ plugins: [snapshotPlugin({ file: join(tmpdir(), 'no-such-snapshot.json') })] });
    const run = await kernel.createRun({});
    expect(run.catalog).toEqual([]);
    expect(run.diagnostics.map((d) => d.code)).toContain(ErrorCode.SOURCE_FAILED);
    await kernel.close();
  });
});

describe('parseSnapshot on a retrieval corpus', () => {
  it('reads a "corpus" list like a "tools" list', () => {
    expect(parseSnapshot({ corpus: catalog.tools }).tools.map((tool) => tool.id)).toEqual([
      'server-a::echo',
      'server-b::ping',
    ]);
  });
});
