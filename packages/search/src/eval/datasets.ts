/**
 * Loaders for the shared retrieval data (`shared/data`, see its README): each
 * snapshot becomes kernel `ToolDescriptor`s (source `mcp`, owner = server) and
 * labeled queries whose relevant ids are descriptor ids.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonSchema, ToolDescriptor } from '@tool-search/kernel';

export type SnapshotName = 'mcp-catalog' | 'livemcpbench' | 'toolbench';

export interface EvalQuery {
  readonly id: string;
  readonly query: string;
  /** Descriptor ids that answer the query. */
  readonly relevant: readonly string[];
}

export interface Snapshot {
  readonly name: SnapshotName;
  readonly descriptors: readonly ToolDescriptor[];
  readonly queries: readonly EvalQuery[];
}

export const SNAPSHOT_FILES: Readonly<Record<SnapshotName, readonly string[]>> = {
  'mcp-catalog': ['mcp-catalog.json', 'mcp-catalog-queries.json'],
  livemcpbench: ['livemcpbench-retrieval.json'],
  toolbench: ['toolbench-stable-retrieval.json'],
};

/** Loads one snapshot from `dataDir`. Queries without a relevant tool are dropped (they cannot be scored). */
export function loadSnapshot(dataDir: string, name: SnapshotName): Snapshot {
  const read = (file: string): Record<string, unknown> =>
    JSON.parse(readFileSync(path.join(dataDir, file), 'utf8')) as Record<string, unknown>;
  switch (name) {
    case 'mcp-catalog': {
      const catalog = read('mcp-catalog.json');
      const queries = read('mcp-catalog-queries.json');
      return {
        name,
        descriptors: list(catalog['tools']).map((tool) =>
          descriptor(
            str(tool['id']),
            str(tool['name']),
            str(tool['server']),
            str(tool['description']),
            schema(tool['inputSchema']),
            optional(tool['title']),
          ),
        ),
        queries: scorable(
          list(queries['queries']).map((q) => ({
            id: str(q['id']),
            query: str(q['query']),
            relevant: list(q['labels']).map((l) => str(l['id'])),
          })),
        ),
      };
    }
    case 'livemcpbench': {
      const data = read('livemcpbench-retrieval.json');
      return {
        name,
        descriptors: list(data['corpus']).map((tool) =>
          descriptor(
            str(tool['id']),
            str(tool['name']),
            str(tool['server']),
            str(tool['description']),
            schema(tool['inputSchema']),
          ),
        ),
        queries: scorable(
          list(data['queries']).map((q) => ({
            id: str(q['id']),
            query: str(q['query']),
            relevant: strings(q['relevant_ids']),
          })),
        ),
      };
    }
    case 'toolbench': {
      const data = read('toolbench-stable-retrieval.json');
      return {
        name,
        descriptors: list(data['corpus']).map((api) =>
          descriptor(
            str(api['id']),
            str(api['api_name']).trim(),
            str(api['tool_name']).trim(),
            str(api['api_description']).trim(),
            apiSchema(api),
          ),
        ),
        queries: scorable(
          list(data['queries']).map((q) => ({
            id: str(q['id']),
            query: str(q['query']),
            relevant: strings(q['relevant_ids']),
          })),
        ),
      };
    }
  }
}

function descriptor(
  id: string,
  name: string,
  owner: string,
  description: string,
  inputSchema: JsonSchema,
  title?: string,
): ToolDescriptor {
  return {
    id,
    name,
    source: 'mcp',
    owner,
    description,
    inputSchema,
    catalogMode: 'catalog',
    ...(title ? { title } : {}),
  };
}

/** ToolBench lists parameters as `{ name, type, description }` arrays; turn them into a JSON Schema. */
function apiSchema(api: Record<string, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (params: unknown, isRequired: boolean): void => {
    for (const param of list(params)) {
      const key = str(param['name']);
      if (!key) continue;
      properties[key] = { type: toolbenchType(str(param['type'])), description: str(param['description']) };
      if (isRequired) required.push(key);
    }
  };
  add(api['required_parameters'], true);
  add(api['optional_parameters'], false);
  return { type: 'object', properties, required };
}

function toolbenchType(type: string): string {
  const t = type.toLowerCase();
  if (t === 'number' || t === 'integer' || t === 'boolean' || t === 'array' || t === 'object') return t;
  return 'string';
}

function scorable(queries: EvalQuery[]): EvalQuery[] {
  return queries.filter((q) => q.relevant.length > 0);
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object') : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function optional(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function schema(value: unknown): JsonSchema {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : { type: 'object' };
}
