/**
 * `config get/set` paths: `tools.toolSearch`, `agents.list[0].tools.allow`,
 * `mcp.servers["my.server"]`. Reading never creates anything; writing
 * creates the objects (and, for `[n]` with n = length, the array slot) on the way.
 */
import { createRequire } from 'node:module';
import type { JsonObjectNode as ObjectNode, JsonValueNode } from '@croct/json5-parser';
import { parseJson5 } from './json5.js';
import { ConfigError } from '@tool-search/kernel';

export type ConfigPathSegment = string | number;

const SEGMENT = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/y;

/** Parses a dot path; a malformed one is `CONFIG_INVALID` with rule `path`. */
export function parseConfigPath(path: string): ConfigPathSegment[] {
  const segments: ConfigPathSegment[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const start = SEGMENT.lastIndex;
    const match = SEGMENT.exec(path);
    if (!match || (start === 0 && path.startsWith('.'))) {
      throw new ConfigError(
        path,
        'path',
        `"${path}" is not a config path at character ${start + 1}; write it like tools.toolSearch or agents.list[0].tools.allow`,
      );
    }
    segments.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : JSON.parse(`"${match[3]}"`)));
  }
  if (!segments.length) throw new ConfigError(path, 'path', 'the config path is empty; write it like tools.toolSearch');
  return segments;
}

/** The value at `path`, or undefined when any part of it is missing. */
export function getConfigValue(config: unknown, path: string): unknown {
  let node: unknown = config;
  for (const segment of parseConfigPath(path)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** A copy of `config` with `value` at `path` (`undefined` removes it). */
export function setConfigValue<T>(config: T, path: string, value: unknown): T {
  const segments = parseConfigPath(path);
  const root: unknown = structuredClone(config ?? {});
  let node = root as Record<string | number, unknown>;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const where = segments
      .slice(0, index + 1)
      .map(String)
      .join('.');
    if (typeof segment === 'number' && !(Array.isArray(node) && segment <= node.length)) {
      throw new ConfigError(
        path,
        'path',
        `${where} is not an item of a list (or more than one past its end); config set appends one item at a time`,
      );
    }
    if (typeof segment === 'string' && (typeof node !== 'object' || node === null || Array.isArray(node))) {
      throw new ConfigError(path, 'path', `${where} cannot be set: its parent is not an object`);
    }
    if (last) {
      if (value === undefined) {
        if (Array.isArray(node) && typeof segment === 'number') node.splice(segment, 1);
        else delete node[segment];
      } else node[segment] = value;
      return;
    }
    const next = node[segment];
    if (next === undefined) node[segment] = typeof segments[index + 1] === 'number' ? [] : {};
    else if (typeof next !== 'object' || next === null)
      throw new ConfigError(
        path,
        'path',
        `${where} holds ${JSON.stringify(next)}, not an object or list; set ${where} itself instead`,
      );
    node = node[segment] as Record<string | number, unknown>;
  });
  return root as T;
}

/** A `config set` value: JSON5 (`true`, `8`, `{ mode: "tools" }`, `["read"]`); text that is not JSON5 is a plain string (`coding`). */
export function parseConfigValue(text: string): unknown {
  try {
    return parseJson5(text);
  } catch {
    return text;
  }
}

/**
 * `text` (a JSON5 config file) with `value` at `path` (`undefined` removes it), edited in place: comments, quoting,
 * indentation and the order of everything else stay as the user wrote them, and new entries follow the file's style.
 * Same paths and the same `CONFIG_INVALID` (rule `path`) errors as `setConfigValue`.
 */
export function setConfigValueInText(text: string, path: string, value: unknown): string {
  const segments = parseConfigPath(path);
  if (text.trim() === '') return `${JSON.stringify(setConfigValue({}, path, value), null, 2)}\n`;
  // Loaded on first edit (a CommonJS package, so synchronously): reading a config never pays for the editor.
  const { JsonArrayNode, JsonObjectNode, JsonParser } = editor();
  const root = JsonParser.parse(text);
  let node: JsonValueNode = root;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const where = segments
      .slice(0, index + 1)
      .map(String)
      .join('.');
    const next = segments[index + 1];
    if (typeof segment === 'number') {
      if (!(node instanceof JsonArrayNode && segment <= node.elements.length)) {
        throw new ConfigError(
          path,
          'path',
          `${where} is not an item of a list (or more than one past its end); config set appends one item at a time`,
        );
      }
      if (last) {
        if (value === undefined) {
          if (segment < node.elements.length) node.delete(segment);
        } else if (segment === node.elements.length) node.push(value as JsonValue);
        else node.set(segment, value as JsonValue);
        return;
      }
      if (segment === node.elements.length) node.push(typeof next === 'number' ? [] : {});
      node = child(node.get(segment), where, path);
      return;
    }
    if (!(node instanceof JsonObjectNode))
      throw new ConfigError(path, 'path', `${where} cannot be set: its parent is not an object`);
    if (last) {
      if (value === undefined) node.delete(segment);
      else node.set(segment, value as JsonValue);
      return;
    }
    if (!node.has(segment)) node.set(segment, typeof next === 'number' ? [] : {});
    node = child(node.get(segment), where, path);
  });
  return root.toString();
}

/** A JSON value as the editor takes it (config values are plain JSON). */
type JsonValue = Parameters<ObjectNode['set']>[1];

const editor = (): typeof import('@croct/json5-parser') => createRequire(import.meta.url)('@croct/json5-parser');

function child(node: JsonValueNode, where: string, path: string): JsonValueNode {
  const { JsonArrayNode, JsonObjectNode } = editor();
  if (node instanceof JsonObjectNode || node instanceof JsonArrayNode) return node;
  throw new ConfigError(
    path,
    'path',
    `${where} holds ${JSON.stringify(node.toJSON())}, not an object or list; set ${where} itself instead`,
  );
}
