/**
 * The shapes a client may hand over for its tools, and their normalization:
 * the OpenAI function format `{ type: 'function', function: { name,
 * description, parameters } }` or the plain `{ name, description, parameters }`,
 * each with an optional `execute`. Shape problems are coded
 * (`CLIENT_TOOL_INVALID`) and say which entry and which field; whether the
 * schema is valid JSON Schema is the kernel's check, as for every tool.
 */
import { ToolSearchError, type CatalogMode, type JsonSchema, type ToolExecutor } from '@tool-search/kernel';
import { ClientToolsErrors } from './errors.js';

/** The OpenAI Chat Completions / Responses function tool. */
export interface OpenAIFunctionToolInput {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: JsonSchema;
    readonly strict?: boolean | null;
  };
  readonly execute?: ToolExecutor;
  /** `direct-only` keeps the tool visible in every exposure mode (the gateway's choice for a request's tools). */
  readonly catalogMode?: CatalogMode;
}

export interface PlainClientToolInput {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: JsonSchema;
  readonly execute?: ToolExecutor;
  readonly catalogMode?: CatalogMode;
}

export type ClientToolInput = OpenAIFunctionToolInput | PlainClientToolInput;

/** A client tool after normalization: what the plugin hands to the kernel. */
export interface ClientTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly execute?: ToolExecutor;
  readonly catalogMode?: CatalogMode;
}

/** A tool without `parameters` takes no arguments. */
export const EMPTY_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: {} });

// Same rule as the kernel's tool names: 1-128 characters, no whitespace or control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: a tool name must not contain control characters
const NAME_PATTERN = /^[^\s\u0000-\u001f]{1,128}$/u;

/** Normalizes a list of client tools; throws `CLIENT_TOOL_INVALID` on the first malformed entry or a repeated name. */
export function normalizeClientTools(input: unknown): readonly ClientTool[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw invalid('clientTools', 'type', 'client tools must be an array');
  const tools: ClientTool[] = [];
  const names = new Set<string>();
  input.forEach((entry: unknown, index: number) => {
    const tool = normalizeClientTool(entry, index);
    if (names.has(tool.name))
      throw invalid(`clientTools[${index}].name`, 'unique', `client tool name "${tool.name}" is used twice`, tool.name);
    names.add(tool.name);
    tools.push(tool);
  });
  return tools;
}

/** Normalizes one client tool (`index` is only used in error paths). */
export function normalizeClientTool(entry: unknown, index = 0): ClientTool {
  const at = `clientTools[${index}]`;
  if (!isRecord(entry)) throw invalid(at, 'type', 'a client tool must be an object');
  let spec: Record<string, unknown> = entry;
  let path = at;
  if (entry.type !== undefined) {
    if (entry.type !== 'function') {
      throw invalid(
        `${at}.type`,
        'enum',
        `client tool type ${JSON.stringify(entry.type)} is not supported; use "function"`,
      );
    }
    if (!isRecord(entry.function))
      throw invalid(`${at}.function`, 'type', 'a "function" tool needs a `function` object with a name');
    spec = entry.function;
    path = `${at}.function`;
  }
  const { name, description, parameters } = spec;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw invalid(
      `${path}.name`,
      'pattern',
      'a client tool name must be 1-128 characters without whitespace or control characters',
    );
  }
  if (description !== undefined && typeof description !== 'string')
    throw invalid(`${path}.description`, 'type', 'description must be a string', name);
  if (parameters !== undefined && !isRecord(parameters))
    throw invalid(`${path}.parameters`, 'type', 'parameters must be a JSON Schema object', name);
  if (entry.execute !== undefined && typeof entry.execute !== 'function')
    throw invalid(`${at}.execute`, 'type', 'execute must be a function', name);
  if (entry.catalogMode !== undefined && entry.catalogMode !== 'catalog' && entry.catalogMode !== 'direct-only') {
    throw invalid(`${at}.catalogMode`, 'enum', 'catalogMode must be "catalog" or "direct-only"', name);
  }
  return {
    name,
    description: description ?? '',
    inputSchema: parameters ?? EMPTY_PARAMETERS,
    ...(entry.execute ? { execute: entry.execute as ToolExecutor } : {}),
    ...(entry.catalogMode ? { catalogMode: entry.catalogMode as CatalogMode } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(path: string, rule: string, why: string, name?: string): ToolSearchError {
  return new ToolSearchError(ClientToolsErrors.CLIENT_TOOL_INVALID, `Client tool at ${path} is invalid: ${why}`, {
    plugin: '@tool-search/plugin-client-tools',
    details: { path, rule, ...(name !== undefined ? { name } : {}) },
  });
}
