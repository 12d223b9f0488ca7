/**
 * The catalog snapshot format: a JSON object with a `tools` array of MCP-style
 * tool entries keyed by server. `tool-search tools export --full` writes it,
 * `shared/data/mcp-catalog.json` already is one, and every other key is kept
 * as metadata and ignored. Ids are `<server>::<tool name>`.
 */
import { readFileSync } from 'node:fs';
import {
  ToolSearchError,
  type JsonSchema,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolDescriptor,
  type ToolSource,
  errorMessage,
} from '@tool-search/kernel';
import { SnapshotErrors } from './errors.js';

export const SNAPSHOT_FORMAT = 'tool-search.catalog-snapshot/1';
export const PLUGIN_NAME = '@tool-search/plugin-snapshot';

const SOURCES: readonly ToolSource[] = ['core', 'plugin', 'mcp', 'client', 'skill'];

export interface SnapshotTool {
  /** `<server>::<name>`; derived when absent. */
  readonly id: string;
  /** The MCP server (npm package, config key) or other owner of the tool. */
  readonly server: string;
  readonly name: string;
  /** Kernel source the tool came from (default `mcp`). */
  readonly source?: ToolSource;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
}

export interface CatalogSnapshot {
  readonly format?: string;
  readonly generatedAt?: string;
  readonly tools: readonly SnapshotTool[];
}

export function snapshotToolId(server: string, name: string): string {
  return `${server}::${name}`;
}

/** Checks and normalizes a parsed snapshot; throws `SNAPSHOT_INVALID` naming the first bad entry. */
export function parseSnapshot(value: unknown, file = '<snapshot>'): CatalogSnapshot {
  // `corpus` is the retrieval-set spelling of the same list (shared/data/livemcpbench-retrieval.json).
  const list = isObject(value) ? (value['tools'] ?? value['corpus']) : undefined;
  if (!isObject(value) || !Array.isArray(list))
    throw invalid(file, 'the snapshot must be an object with a "tools" array');
  const tools = list.map((entry: unknown, index: number): SnapshotTool => {
    if (!isObject(entry)) throw invalid(file, `tools[${index}] must be an object`, index);
    const name = entry['name'];
    const server = entry['server'];
    if (typeof name !== 'string' || !name)
      throw invalid(file, `tools[${index}].name must be a non-empty string`, index);
    if (typeof server !== 'string' || !server)
      throw invalid(file, `tools[${index}].server must be a non-empty string`, index);
    const source = entry['source'];
    if (source !== undefined && !SOURCES.includes(source as ToolSource))
      throw invalid(file, `tools[${index}].source must be one of ${SOURCES.join(', ')}`, index);
    const text = (key: string): string | undefined =>
      typeof entry[key] === 'string' && entry[key] ? (entry[key] as string) : undefined;
    const title = text('title');
    return {
      id: text('id') ?? snapshotToolId(server, name),
      server,
      name,
      ...(source !== undefined ? { source: source as ToolSource } : {}),
      ...(title !== undefined ? { title } : {}),
      description: text('description') ?? '',
      inputSchema: isObject(entry['inputSchema']) ? (entry['inputSchema'] as JsonSchema) : { type: 'object' },
      ...(isObject(entry['outputSchema']) ? { outputSchema: entry['outputSchema'] as JsonSchema } : {}),
      ...(isObject(entry['annotations']) ? { annotations: entry['annotations'] as ToolAnnotations } : {}),
    };
  });
  return {
    ...(typeof value['format'] === 'string' ? { format: value['format'] } : {}),
    ...(typeof value['generatedAt'] === 'string' ? { generatedAt: value['generatedAt'] } : {}),
    tools,
  };
}

/** Reads and parses a snapshot file; throws `SNAPSHOT_INVALID` when it cannot be read or parsed. */
export function readSnapshotFile(file: string): CatalogSnapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw invalid(file, `cannot read ${file}: ${errorMessage(error)}`, undefined, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `${file} is not JSON: ${errorMessage(error)}`, undefined, error);
  }
  return parseSnapshot(parsed, file);
}

/**
 * Snapshot tools as searchable descriptors whose ids are the snapshot ids
 * (`<server>::<name>`), in file order: what offline evaluation ranks.
 */
export function snapshotDescriptors(snapshot: CatalogSnapshot): ToolDescriptor[] {
  return snapshot.tools.map((tool) => ({ id: tool.id, ...snapshotDefinition(tool), catalogMode: 'catalog' as const }));
}

/** One snapshot tool as a kernel tool definition (no `execute`: a snapshot describes tools, it cannot run them). */
export function snapshotDefinition(tool: CatalogSnapshot['tools'][number]) {
  return {
    name: tool.name,
    source: tool.source ?? 'mcp',
    owner: tool.server,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  } satisfies ToolDefinition;
}

/** A snapshot of a run's catalog (full descriptors with schemas); direct-only tools are left out, as search never sees them. */
export function toSnapshot(
  descriptors: readonly ToolDescriptor[],
  generatedAt = new Date().toISOString(),
): CatalogSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    generatedAt,
    tools: descriptors
      .filter((tool) => tool.catalogMode === 'catalog')
      .map((tool) => ({
        id: snapshotToolId(tool.owner, tool.name),
        server: tool.owner,
        name: tool.name,
        source: tool.source,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(file: string, message: string, index?: number, cause?: unknown): ToolSearchError {
  return new ToolSearchError(SnapshotErrors.SNAPSHOT_INVALID, message, {
    plugin: PLUGIN_NAME,
    details: { file, ...(index !== undefined ? { index } : {}) },
    ...(cause !== undefined ? { cause } : {}),
  });
}
