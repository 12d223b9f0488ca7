/**
 * `config.schema.lookup`: one node of the config's JSON Schema at a dot path (`gateway.auth`,
 * `agents.list.*.tools`, `mcp.servers.*`), shallow: its own rules plus a one-line summary per child key. The
 * whole schema never comes back (the root path is refused), so a lookup costs a few hundred characters of context.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { GatewayErrors } from './errors.js';

type Schema = Record<string, unknown>;

export interface SchemaLookup {
  readonly path: string;
  readonly type?: unknown;
  readonly description?: string;
  /** The node's own constraints (enum, pattern, minimum, items type…), without nested schemas. */
  readonly rules: Record<string, unknown>;
  readonly required: readonly string[];
  /** Whether keys beyond `children` are accepted here. */
  readonly openKeys: boolean;
  /** One entry per known child key: its type and whether it is required. */
  readonly children: readonly { key: string; type?: unknown; required: boolean }[];
  /** For a list or a map: the item's (or value's) type; look it up at `<path>.*`. */
  readonly each?: { type?: unknown };
  /** For OpenClaw's `plugins.entries.<id>…` paths: where that lives in this config (`plugins["@scope/name"]`). */
  readonly configPath?: string;
}

const NESTED = new Set([
  'properties',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  'if',
  'then',
  'else',
  'propertyNames',
  'patternProperties',
  '$id',
  'title',
  'required',
  'type',
  'description',
]);

export function lookupSchema(root: Schema, path: string): SchemaLookup {
  const raw = splitRawPath(path);
  if (raw[0] === 'plugins' && raw[1] === 'entries') return lookupPluginEntry(root, raw.slice(2));
  const segments = raw.map(anyIndex);
  return describe(nodeAt(root, segments), segments.join('.'));
}

/** `agents.list[0].tools` and `agents.list.*.tools` are the same lookup; `mcp.servers["my.server"]` quotes a key. */
export function splitLookupPath(path: string): string[] {
  return splitRawPath(path).map(anyIndex);
}

/**
 * OpenClaw's `plugins.entries.<id>` (`enabled`, `config`) over this config's `plugins.<id>` (the options; there means
 * enabled). The id is one segment: `@scope/name` as it is, an id with dots or brackets quoted (`["./my.plugin.mjs"]`).
 */
function lookupPluginEntry(root: Schema, rest: readonly string[]): SchemaLookup {
  const [id, key, ...more] = rest;
  if (id === undefined)
    return {
      path: 'plugins.entries',
      description: "OpenClaw's plugins.entries: one entry per plugin id; here each entry is plugins.<id>",
      type: 'object',
      rules: {},
      required: [],
      openKeys: true,
      children: [],
      each: { type: 'object' },
      configPath: 'plugins',
    };
  const entryPath = `plugins.entries${segmentText(id)}`;
  const configPath = `plugins${segmentText(id)}`;
  const options = nodeAt(root, ['plugins', id]);
  if (key === undefined)
    return {
      path: entryPath,
      description: `a plugin entry: here ${configPath} holds its options, and the plugin is on exactly when that key is there`,
      type: 'object',
      rules: {},
      required: [],
      openKeys: false,
      children: [
        { key: 'enabled', type: 'boolean', required: false },
        { key: 'config', ...(typeOf(options) !== undefined ? { type: typeOf(options) } : {}), required: false },
      ],
      configPath,
    };
  if (key === 'enabled' && more.length === 0)
    return {
      path: `${entryPath}.enabled`,
      description: `true: ${configPath} is there (at least {}); false: ${configPath} is removed`,
      type: 'boolean',
      rules: {},
      required: [],
      openKeys: false,
      children: [],
      configPath,
    };
  if (key !== 'config')
    throw new ToolSearchError(
      GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN,
      `${entryPath} has no key "${key}"; it knows enabled, config`,
      { details: { path: `${entryPath}.${key}`, at: entryPath, known: ['enabled', 'config'] } },
    );
  const inner = ['plugins', id, ...more.map(anyIndex)];
  return {
    ...describe(nodeAt(root, inner), `${entryPath}.config${more.map(segmentText).join('')}`),
    configPath: inner.map((segment, index) => (index ? segmentText(segment) : segment)).join(''),
  };
}

function nodeAt(root: Schema, segments: readonly string[]): Schema {
  let node: Schema = root;
  segments.forEach((segment, index) => {
    const next = childOf(node, segment);
    if (!next) {
      const where = segments.slice(0, index).join('.') || '(root)';
      const known = Object.keys(propertiesOf(node));
      throw new ToolSearchError(
        GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN,
        `${where} has no key "${segment}"${known.length ? `; it knows ${known.join(', ')}` : ''}`,
        { details: { path: segments.join('.'), at: where, known } },
      );
    }
    node = next;
  });
  return node;
}

function describe(node: Schema, path: string): SchemaLookup {
  const properties = propertiesOf(node);
  const required = requiredOf(node);
  const each = node.items ?? (isSchema(node.additionalProperties) ? node.additionalProperties : undefined);
  return {
    path,
    ...(typeOf(node) !== undefined ? { type: typeOf(node) } : {}),
    ...(typeof node.description === 'string' ? { description: node.description } : {}),
    rules: Object.fromEntries(Object.entries(node).filter(([key]) => !NESTED.has(key))),
    required,
    openKeys: node.additionalProperties !== false,
    children: Object.entries(properties).map(([key, child]) => ({
      key,
      ...(typeOf(child) !== undefined ? { type: typeOf(child) } : {}),
      required: required.includes(key),
    })),
    ...(isSchema(each) ? { each: { ...(typeOf(each) !== undefined ? { type: typeOf(each) } : {}) } } : {}),
  };
}

/** The path's segments as written (`[0]` and `[*]` are `*`; a quoted key is unquoted). */
function splitRawPath(path: string): string[] {
  const segments: string[] = [];
  const pattern = /\s*(?:\.?([^.[\]"\s]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\])/y;
  while (pattern.lastIndex < path.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(path);
    if (!match) throw lookupPathInvalid(path, `it cannot be read at character ${start + 1}`);
    segments.push(match[1] ?? (match[2] !== undefined ? '*' : (JSON.parse(`"${match[3]}"`) as string)));
  }
  if (!segments.length)
    throw lookupPathInvalid(
      path,
      'the path is empty; the whole schema is never returned, look up one key (gateway, tools.exec, agents.list.*)',
    );
  return segments;
}

/** A list index is any item: `agents.list.0` is `agents.list.*`. */
function anyIndex(segment: string): string {
  return /^\d+$/.test(segment) ? '*' : segment;
}

/** `.key`, or `["key"]` for a key that is not a plain name (`@scope/name`, `./x.mjs`). */
function segmentText(segment: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(segment) || segment === '*' ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

function childOf(node: Schema, segment: string): Schema | undefined {
  const properties = propertiesOf(node);
  if (segment !== '*' && Object.hasOwn(properties, segment)) return properties[segment];
  for (const branch of branchesOf(node)) {
    if (segment === '*' && isSchema(branch.items)) return branch.items;
    if (isSchema(branch.additionalProperties)) return branch.additionalProperties;
  }
  return undefined;
}

/** The node and the branches its keys may come from (`anyOf`/`oneOf`/`allOf`, `if`/`then`/`else`). */
function branchesOf(node: Schema): Schema[] {
  const out: Schema[] = [node];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const branch of list) if (isSchema(branch)) out.push(...branchesOf(branch));
  }
  for (const key of ['then', 'else'] as const) if (isSchema(node[key])) out.push(...branchesOf(node[key] as Schema));
  return out;
}

function propertiesOf(node: Schema): Record<string, Schema> {
  const merged: Record<string, Schema> = {};
  for (const branch of branchesOf(node)) {
    if (isSchema(branch.properties))
      for (const [key, value] of Object.entries(branch.properties))
        if (isSchema(value) && !Object.hasOwn(merged, key)) merged[key] = value;
  }
  return merged;
}

function requiredOf(node: Schema): string[] {
  return Array.isArray(node.required) ? node.required.filter((key): key is string => typeof key === 'string') : [];
}

function typeOf(node: Schema): unknown {
  if (node.type !== undefined) return node.type;
  if (Array.isArray(node.enum)) return 'enum';
  const types = [
    ...new Set(
      branchesOf(node)
        .slice(1)
        .map((branch) => branch.type)
        .filter((type) => type !== undefined)
        .flat(),
    ),
  ];
  return types.length === 1 ? types[0] : types.length ? types : undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lookupPathInvalid(path: string, why: string): ToolSearchError {
  return new ToolSearchError(GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN, `"${path}" is not a config path: ${why}`, {
    details: { path },
  });
}
