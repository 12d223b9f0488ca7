/** server-memory and server-filesystem, started over stdio side by side, doing real work. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Run, type ToolCallOutcome } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { nodeServer } from './helpers.js';

function text(outcome: ToolCallOutcome): string {
  if (outcome.status !== 'ok') throw new Error(`call did not succeed: ${JSON.stringify(outcome)}`);
  return outcome.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

describe('server-memory and server-filesystem', () => {
  let folder: string;
  let kernel: Kernel;
  let run: Run;

  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'plugin-mcp-')));
    await mkdir(join(folder, 'notes'));
    await writeFile(join(folder, 'notes', 'hello.txt'), 'Hello from the temporary folder\n');
    const kernelPlugin = mcpPlugin({
      servers: {
        memory: { ...nodeServer('server-memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
        files: nodeServer('server-filesystem', folder),
      },
    });
    kernel = createKernel({ plugins: [kernelPlugin] });
    run = await kernel.createRun();
  });
  afterAll(async () => {
    await kernel.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('lists the tools of both servers under their own names', () => {
    expect(run.tool('mcp:memory:create_entities')).toBeDefined();
    expect(run.tool('mcp:files:read_text_file')).toBeDefined();
    expect(run.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  });

  it('lists a directory of the temporary folder through server-filesystem', async () => {
    const listing = text(await run.call('mcp:files:list_directory', { path: join(folder, 'notes') }));
    expect(listing).toContain('[FILE] hello.txt');
  });

  it('reads a file through server-filesystem', async () => {
    const content = text(await run.call('mcp:files:read_text_file', { path: join(folder, 'notes', 'hello.txt') }));
    expect(content).toContain('Hello from the temporary folder');
  });

  it('returns an MCP error result (isError) as the tool result for a path outside the allowed folder', async () => {
    const outcome = await run.call('mcp:files:read_text_file', { path: '/etc/hostname' });
    expect(outcome).toMatchObject({ status: 'ok', result: { isError: true } });
  });

  it('stores and reads back an entity through server-memory', async () => {
    await run.call('mcp:memory:create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    const graph = text(await run.call('mcp:memory:read_graph', {}));
    expect(graph).toContain('Ada');
    expect(graph).toContain('wrote the first program');
  });
});
