/**
 * Listing: collects what sources contribute in `listTools`, isolating each
 * source (a throw or a timeout discards only its tools), then turns
 * definitions into frozen, validated descriptors in a deterministic order.
 */
import { ErrorCode } from './errors.js';
import type { KernelHooks } from './hooks.js';
import { checkInputSchema, markBounded, structuralSchemaIssue, type SchemaIssue } from './schema.js';
import { schemaShape } from './schema-bounds.js';
import type {
  CatalogSink,
  Diagnostic,
  ListContext,
  ToolDefinition,
  ToolDescriptor,
  ToolExecutor,
  ToolGuidance,
  ToolSource,
} from './types.js';
import { errorMessage } from './error-message.js';

export const SOURCES: readonly ToolSource[] = ['core', 'plugin', 'mcp', 'client', 'skill'];

export interface CatalogEntry {
  readonly descriptor: ToolDescriptor;
  readonly execute?: ToolExecutor;
}

/** The sink handed to `listTools`; each source gets its own buffered view. */
export class ListingSink implements CatalogSink {
  readonly definitions: { plugin: string; definition: ToolDefinition }[] = [];
  readonly guidanceEntries: { plugin: string; guidance: ToolGuidance }[] = [];
  readonly diagnostics: Diagnostic[] = [];

  add(): void {
    throw new Error('ListingSink.add is only reachable through a source view');
  }

  diagnostic(diagnostic: Omit<Diagnostic, 'plugin' | 'hook'>): void {
    this.diagnostics.push({ ...diagnostic, hook: 'listTools' });
  }

  guidance(): void {
    throw new Error('ListingSink.guidance is only reachable through a source view');
  }

  /** A view for one source; its tools land only when `commit()` runs. */
  forSource(plugin: string): CatalogSink & { commit(): void; close(): void } {
    const buffered: ToolDefinition[] = [];
    const notes: ToolGuidance[] = [];
    let open = true;
    return {
      add: (tools) => {
        if (!open) return;
        for (const tool of Array.isArray(tools) ? tools : [tools as ToolDefinition]) buffered.push(tool);
      },
      guidance: (guidance) => {
        if (open) notes.push(guidance);
      },
      diagnostic: (diagnostic) => {
        if (open) this.diagnostics.push({ ...diagnostic, plugin, hook: 'listTools' });
      },
      commit: () => {
        if (!open) return;
        open = false;
        for (const definition of buffered) this.definitions.push({ plugin, definition });
        for (const guidance of notes) this.guidanceEntries.push({ plugin, guidance });
      },
      close: () => {
        open = false;
      },
    };
  }
}

/** Wraps every `listTools` tap: per-source buffer, timeout, errors become diagnostics. */
export function isolateSources(hooks: KernelHooks, timeoutMs: () => number): void {
  hooks.listTools.intercept({
    name: '@tool-search/kernel:isolate',
    register: (tap) => {
      const original = tap.fn as (sink: CatalogSink, ctx: ListContext) => unknown;
      const plugin = tap.name;
      const fn = async (sink: ListingSink, ctx: ListContext): Promise<void> => {
        const view = sink.forSource(plugin);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs());
        });
        try {
          const outcome = await Promise.race([Promise.resolve().then(() => original(view, ctx)), timeout]);
          if (outcome === 'timeout') {
            sink.diagnostics.push({
              code: ErrorCode.SOURCE_TIMEOUT,
              level: 'error',
              message: `Tool source "${plugin}" did not list its tools within ${timeoutMs()} ms; its tools are missing from this run`,
              plugin,
              hook: 'listTools',
            });
          } else {
            view.commit();
          }
        } catch (error) {
          sink.diagnostics.push({
            code: ErrorCode.SOURCE_FAILED,
            level: 'error',
            message: `Tool source "${plugin}" failed in listTools: ${errorMessage(error)}; its tools are missing from this run`,
            plugin,
            hook: 'listTools',
          });
        } finally {
          view.close();
          clearTimeout(timer);
        }
      };
      return { ...tap, type: 'promise', fn };
    },
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a tool name must not contain control characters
const NAME_PATTERN = /^[^\s\u0000-\u001f]{1,128}$/u;
const descriptorCache = new WeakMap<ToolDefinition, ToolDescriptor>();

/** Validates definitions, derives ids, drops bad or duplicate tools with diagnostics; sorted by id. */
export function buildCatalog(
  definitions: readonly { plugin: string; definition: ToolDefinition }[],
  diagnostics: Diagnostic[],
): CatalogEntry[] {
  const byId = new Map<string, CatalogEntry>();
  for (const { plugin, definition } of definitions) {
    const problem = definitionProblem(definition);
    if (problem) {
      diagnostics.push({ code: ErrorCode.TOOL_INVALID, level: 'error', message: problem, plugin, hook: 'listTools' });
      continue;
    }
    const id = `${definition.source}:${definition.owner}:${definition.name}`;
    // Bounds first, on the definition's own objects: cloning a 3,000-deep schema would overflow the stack.
    const bounded = boundsIssue(definition.inputSchema) ?? boundsIssue(definition.outputSchema);
    if (bounded) {
      diagnostics.push(schemaDropped(id, definition, plugin, bounded));
      continue;
    }
    const descriptor = tryDescriptor(id, definition);
    if (!descriptor) {
      diagnostics.push({
        code: ErrorCode.TOOL_INVALID,
        level: 'error',
        message: `Tool ${id} was dropped: its definition nests too deeply to copy`,
        plugin,
        hook: 'listTools',
        toolId: id,
      });
      continue;
    }
    // The meta-schema, checked without Ajv; Ajv compiles the schema on the tool's first call (`run.call`).
    const issue =
      checkInputSchema(descriptor.inputSchema) ??
      (descriptor.outputSchema !== undefined ? structuralSchemaIssue(descriptor.outputSchema) : undefined);
    if (issue) {
      diagnostics.push(schemaDropped(id, definition, plugin, issue));
      continue;
    }
    const unenforced = schemaShape(definition.inputSchema).unenforcedPatterns;
    if (unenforced.length) {
      diagnostics.push({
        code: ErrorCode.TOOL_SCHEMA_PATTERN_UNENFORCED,
        level: 'warning',
        message: `Tool ${id}: ${unenforced.length} pattern(s) use lookaround or backreferences, which the linear-time engine cannot run; they are not checked before the call`,
        plugin,
        hook: 'listTools',
        toolId: id,
        details: { patterns: unenforced },
      });
    }
    if (byId.has(id)) {
      diagnostics.push({
        code: ErrorCode.TOOL_ID_DUPLICATE,
        level: 'warning',
        message: `Tool id ${id} was listed twice; the later copy from "${plugin}" was dropped`,
        plugin,
        hook: 'listTools',
        toolId: id,
      });
      continue;
    }
    byId.set(id, { descriptor, ...(definition.execute ? { execute: definition.execute } : {}) });
  }
  return [...byId.values()].sort((a, b) => compareIds(a.descriptor.id, b.descriptor.id));
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function definitionProblem(definition: ToolDefinition): string | undefined {
  if (typeof definition !== 'object' || definition === null) return 'A tool definition must be an object';
  if (typeof definition.name !== 'string' || !NAME_PATTERN.test(definition.name)) {
    return `Tool name ${JSON.stringify(definition.name)} must be 1-128 characters without whitespace or control characters`;
  }
  if (!SOURCES.includes(definition.source))
    return `Tool ${definition.name}: source must be one of ${SOURCES.join(', ')}`;
  if (typeof definition.owner !== 'string' || !NAME_PATTERN.test(definition.owner))
    return `Tool ${definition.name}: owner must be a non-empty name`;
  if (definition.description !== undefined && typeof definition.description !== 'string')
    return `Tool ${definition.name}: description must be a string`;
  if (
    definition.catalogMode !== undefined &&
    definition.catalogMode !== 'catalog' &&
    definition.catalogMode !== 'direct-only' &&
    definition.catalogMode !== 'hidden'
  ) {
    return `Tool ${definition.name}: catalogMode must be "catalog", "direct-only" or "hidden"`;
  }
  if (definition.execute !== undefined && typeof definition.execute !== 'function')
    return `Tool ${definition.name}: execute must be a function`;
  return undefined;
}

function schemaDropped(id: string, definition: ToolDefinition, plugin: string, issue: SchemaIssue): Diagnostic {
  return {
    code: ErrorCode.TOOL_SCHEMA_INVALID,
    level: 'error',
    message: `Tool ${id} (source ${definition.source}, owner ${definition.owner}) was dropped: its schema is not valid JSON Schema at ${issue.path || '/'} (${issue.rule}: ${issue.message})`,
    plugin,
    hook: 'listTools',
    toolId: id,
  };
}

function boundsIssue(schema: unknown): SchemaIssue | undefined {
  return typeof schema === 'object' && schema !== null ? schemaShape(schema).issue : undefined;
}

/** `undefined` when the definition cannot be copied (annotations or meta nested past the stack). */
function tryDescriptor(id: string, definition: ToolDefinition): ToolDescriptor | undefined {
  try {
    return toDescriptor(id, definition);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function toDescriptor(id: string, definition: ToolDefinition): ToolDescriptor {
  const cached = descriptorCache.get(definition);
  if (cached && cached.id === id) return cached;
  const descriptor: ToolDescriptor = deepFreeze({
    id,
    name: definition.name,
    source: definition.source,
    owner: definition.owner,
    ...(definition.title !== undefined ? { title: definition.title } : {}),
    description: definition.description ?? '',
    inputSchema: boundedCopy(definition.inputSchema),
    ...(definition.outputSchema !== undefined ? { outputSchema: boundedCopy(definition.outputSchema) } : {}),
    ...(definition.annotations !== undefined ? { annotations: structuredClone(definition.annotations) } : {}),
    catalogMode: definition.catalogMode ?? 'catalog',
    ...(definition.meta !== undefined ? { meta: structuredClone(definition.meta) } : {}),
  });
  descriptorCache.set(definition, descriptor);
  return descriptor;
}

/**
 * A schema `buildCatalog` already bounded: kept as it is when it is deeply frozen plain data (no one can change it
 * later), else a copy, marked so its checks do not walk it again.
 */
function boundedCopy<T>(schema: T): T {
  if (typeof schema === 'object' && schema !== null && schemaShape(schema).frozen) return schema;
  const copy = structuredClone(schema);
  if (typeof copy === 'object' && copy !== null) markBounded(copy);
  return copy;
}

/** Freezes an object graph in place (frozen sub-objects are left as they are) and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
