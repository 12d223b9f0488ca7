/**
 * `memoryPlugin`: `memory_search` and `memory_get` (`core:core:memory_*`) over
 * the workspace's memory files. Search ranks chunks with the same index the
 * tool search uses (`@tool-search/search`), rebuilt only when a file changed.
 */
import {
  errorMessage,
  silentLogger,
  type JsonSchema,
  type KernelPlugin,
  type Logger,
  type ToolDefinition,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { jsonToolResult } from '@tool-search/provider-formats';
import { createToolIndex, type ToolIndex } from '@tool-search/search';
import { workspaceRoot } from '@tool-search/workspace';
import { chunkMarkdown, type MemoryChunk } from './chunks.js';
import { listMemoryFiles, readMemoryFile, resolveMemoryPath, type MemoryFile } from './memory-files.js';

export const MEMORY_PLUGIN_NAME = '@tool-search/plugin-memory';
export const DEFAULT_MAX_RESULTS = 6;
/** Lines `memory_get` returns at most in one call. */
export const MAX_GET_LINES = 2_000;
const SNIPPET_CHARS = 700;

export interface MemoryPluginOptions {
  /** The workspace folder (`plugins.core.workspace`). */
  readonly workspace: string;
}

export function memoryPlugin(options: MemoryPluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  let logger: Logger = silentLogger;
  const memory = memoryIndex(root, () => logger);
  const tools: ToolDefinition[] = [searchTool(memory), getTool(root)];
  return {
    name: MEMORY_PLUGIN_NAME,
    apply({ hooks, logger: scoped }) {
      logger = scoped;
      hooks.listTools.tap((sink) => sink.add(tools));
    },
  };
}

interface MemoryIndex {
  search(query: string, limit: number): Promise<{ chunk: MemoryChunk; rank: number }[]>;
  readonly files: () => Promise<number>;
}

function memoryIndex(root: string, logger: () => Logger): MemoryIndex {
  let key = '';
  let built: { index: ToolIndex; chunks: Map<string, MemoryChunk>; files: number } | undefined;
  const current = async () => {
    const files = listMemoryFiles(root);
    const next = files.map((f) => `${f.path}:${f.mtimeMs}:${f.size}`).join('|');
    if (!built || next !== key) {
      key = next;
      built = await build(root, files, logger());
    }
    return built;
  };
  return {
    async search(query, limit) {
      const { index, chunks } = await current();
      return index.search(query, { limit }).hits.flatMap((hit, rank) => {
        const chunk = chunks.get(hit.id);
        return chunk ? [{ chunk, rank }] : [];
      });
    },
    files: async () => (await current()).files,
  };
}

const EMPTY_SCHEMA: JsonSchema = { type: 'object', properties: {} };

async function build(root: string, files: readonly MemoryFile[], logger: Logger) {
  const chunks = new Map<string, MemoryChunk>();
  const descriptors: ToolDescriptor[] = [];
  for (const file of files) {
    // A file that cannot be read (it leads out of the workspace, a read failed) is left out of search, and the log says why.
    const text = await readMemoryFile(root, file.path).catch((error: unknown) => {
      logger.warn(`memory file ${file.path} left out of memory_search: ${errorMessage(error)}`, { cause: error });
      return undefined;
    });
    if (text === undefined) continue;
    for (const chunk of chunkMarkdown(file.path, text)) {
      const id = `memory:${file.path}#L${chunk.startLine}-${chunk.endLine}`;
      chunks.set(id, chunk);
      const stem = file.path.replace(/^memory\//, '').replace(/\.md$/, '');
      descriptors.push({
        id,
        name: stem,
        source: 'core',
        owner: 'memory',
        ...(chunk.heading ? { title: chunk.heading } : {}),
        description: chunk.text,
        inputSchema: EMPTY_SCHEMA,
        catalogMode: 'catalog',
      });
    }
  }
  // Every chunk may be a hit: the index's response cap is sized for tool hits, not for memory.
  return {
    index: createToolIndex(descriptors, {
      maxSearchLimit: 50,
      searchDefaultLimit: DEFAULT_MAX_RESULTS,
      maxResponseBytes: 1 << 20,
    }),
    chunks,
    files: files.length,
  };
}

function searchTool(memory: MemoryIndex): ToolDefinition {
  return {
    name: 'memory_search',
    source: 'core',
    owner: 'core',
    description:
      'Search the memory files (MEMORY.md and memory/*.md) for notes, facts and decisions saved earlier; returns file paths, line ranges and snippets.',
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'What to recall.' },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          description: `Hits to return (default ${DEFAULT_MAX_RESULTS}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async execute(args) {
      const limit = typeof args.maxResults === 'number' ? args.maxResults : DEFAULT_MAX_RESULTS;
      const results = (await memory.search(String(args.query), limit)).map(({ chunk, rank }) => ({
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        ...(chunk.heading ? { heading: chunk.heading } : {}),
        rank: rank + 1,
        snippet: chunk.text.length > SNIPPET_CHARS ? `${chunk.text.slice(0, SNIPPET_CHARS)}…` : chunk.text,
      }));
      return jsonToolResult({ query: String(args.query), files: await memory.files(), results });
    },
  };
}

function getTool(root: string): ToolDefinition {
  return {
    name: 'memory_get',
    source: 'core',
    owner: 'core',
    description:
      'Read lines of one memory file (MEMORY.md or memory/*.md), e.g. a range found by memory_search. A file not written yet reads as empty.',
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          minLength: 1,
          description: 'Memory file, relative to the workspace (MEMORY.md or memory/…).',
        },
        from: { type: 'integer', minimum: 1, description: 'First line (1-based; default 1).' },
        lines: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_GET_LINES,
          description: `Number of lines (default: the rest of the file, at most ${MAX_GET_LINES}).`,
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    async execute(args) {
      const file = resolveMemoryPath(root, String(args.path));
      const text = file.exists ? await readMemoryFile(root, file.path) : undefined;
      if (text === undefined) return jsonToolResult({ path: file.path, from: 1, lines: 0, totalLines: 0, text: '' });
      const all = text.split(/\r?\n/);
      const from = typeof args.from === 'number' ? args.from : 1;
      const count = typeof args.lines === 'number' ? args.lines : MAX_GET_LINES;
      const slice = all.slice(from - 1, from - 1 + count);
      return jsonToolResult({
        path: file.path,
        from,
        lines: slice.length,
        totalLines: all.length,
        truncated: from - 1 + count < all.length,
        text: slice.join('\n'),
      });
    },
  };
}
