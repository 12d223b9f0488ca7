/**
 * The fake catalog source: fake core tools plus N deterministic plugin tools.
 * Definitions are built once per plugin instance and reused across runs, so
 * the kernel's per-definition caches (descriptors, schema checks) stay warm.
 */
import {
  deepFreeze,
  ErrorCode,
  ToolSearchError,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { CORE_TOOLS } from './core-tools.js';
import { DEMO_TOOLS } from './demo-tools.js';
import { generateFakeTool } from './generate.js';
import { precomputedTools } from './precomputed.js';
import type {} from './types.js'; // ToolMeta.demo

export const PLUGIN_NAME = '@tool-search/plugin-fake-catalog';
/** Owner of the plugin tools: ids are `plugin:fake-catalog:<name>`. */
export const FAKE_CATALOG_OWNER = 'fake-catalog';

export interface FakeCatalogOptions {
  /** Number of fake plugin tools. Default 1000. */
  readonly tools?: number;
  /**
   * The demo catalog's example tools (the README's headline example: a GitHub-style `create_issue`, owner `github`)
   * take the first plugin slots, so `tools` stays the number of plugin tools. Default false.
   */
  readonly demoTools?: boolean;
  /** Add the fake core tools (read, write, exec, …). Default true. */
  readonly core?: boolean;
  /** Seed of the generator. Default 1. */
  readonly seed?: number;
}

export function fakeCatalogPlugin(options: FakeCatalogOptions = {}): KernelPlugin {
  const { tools: count = 1000, core = true, seed = 1, demoTools = false } = options;
  if (!Number.isInteger(count) || count < 0) throw invalid('tools', 'must be a non-negative integer');
  if (typeof core !== 'boolean') throw invalid('core', 'must be a boolean');
  if (typeof demoTools !== 'boolean') throw invalid('demoTools', 'must be a boolean');
  if (!Number.isInteger(seed)) throw invalid('seed', 'must be an integer');
  let definitions: readonly ToolDefinition[] | undefined;

  return {
    name: PLUGIN_NAME,
    apply(api) {
      api.hooks.listTools.tap((sink) => {
        definitions ??= Object.freeze(buildDefinitions(count, core, seed, demoTools));
        sink.add(definitions);
      });
    },
  };
}

/** Every fake tool answers with this text, so a test can see which tool ran with which arguments. */
export function fakeToolText(name: string, args: Record<string, unknown>): string {
  return `FAKE_TOOL_OK ${name} ${JSON.stringify(args)}`;
}

/** Every fake tool's description starts with this, so a model (or a person reading `tools list`) knows it does nothing. */
export const FAKE_DESCRIPTION_PREFIX = 'Fake demo tool (it does nothing and answers a fixed test marker). ';

/**
 * The second text part of every fake's result, after the marker: the model (and the person reading its transcript)
 * is told plainly that nothing happened, and where the real tools come from. The marker part stays as it was, so
 * tests and comparisons that read it are unchanged.
 */
export function fakeResultNote(name: string): string {
  return (
    `DEMO: ${name} is a fake tool of Tool Search's demo catalog and did nothing (nothing was read, written, run or ` +
    'sent); FAKE_TOOL_OK is a test marker, not a result. The real tools come from tool-search.json: ' +
    `plugins: { core: {} } (tool-search config set plugins.core '{}'), MCP servers or plugin modules.`
  );
}

/** The mark every fake carries (`ToolMeta.demo`), frozen and shared: the kernel copies a definition's meta. */
const DEMO_META = Object.freeze({ demo: true });

function buildDefinitions(count: number, core: boolean, seed: number, demoTools: boolean): ToolDefinition[] {
  const definitions: ToolDefinition[] = [];
  const fake = (description: string) => `${FAKE_DESCRIPTION_PREFIX}${description}`;
  if (core) {
    for (const spec of CORE_TOOLS)
      definitions.push({
        ...spec,
        description: fake(spec.description),
        source: 'core',
        owner: 'core',
        meta: DEMO_META,
        execute: answer(spec.name),
      });
  }
  const examples = demoTools ? DEMO_TOOLS.slice(0, count) : [];
  for (const spec of examples)
    definitions.push({
      ...spec.tool,
      description: fake(spec.tool.description),
      source: 'plugin',
      owner: spec.owner,
      meta: DEMO_META,
      execute: answer(spec.tool.name),
    });
  const generated = count - examples.length;
  const specs =
    precomputedTools(seed, generated) ?? Array.from({ length: generated }, (_, i) => generateFakeTool(i + 1, seed));
  // Frozen, so the kernel keeps each schema instead of copying it (the catalog copies what a source could still change).
  for (const spec of specs) {
    definitions.push({
      ...spec,
      inputSchema: deepFreeze(spec.inputSchema),
      description: fake(spec.description),
      source: 'plugin',
      owner: FAKE_CATALOG_OWNER,
      meta: DEMO_META,
      execute: answer(spec.name),
    });
  }
  return definitions;
}

function answer(name: string) {
  const note = fakeResultNote(name);
  return (args: Record<string, unknown>): ToolResult => ({
    content: [
      { type: 'text', text: fakeToolText(name, args) },
      { type: 'text', text: note },
    ],
  });
}

function invalid(option: string, message: string): ToolSearchError {
  return new ToolSearchError(ErrorCode.OPTIONS_INVALID, `fakeCatalogPlugin: option "${option}" ${message}`, {
    plugin: PLUGIN_NAME,
    details: { option },
  });
}
