/**
 * The scenario's temporary fake plugin, as the QA document has it: a plugin
 * module written to a temporary folder and loaded with `import()`, owning the
 * fake plugin tools (`fake_plugin_tool_0001`…, the same deterministic specs as
 * the fake catalog) and one direct-only tool that every lane must show.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonSchema, KernelPlugin } from '@tool-search/kernel';
import { generateFakeTool, type FakeToolSpec } from '@tool-search/plugin-fake-catalog';

export const FIXTURE_PLUGIN_ID = 'tool-search-e2e-fixture';
export const DIRECT_ONLY_TOOL = 'e2e_fixture_status';

export interface FixtureTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface FixturePlugin {
  readonly plugin: KernelPlugin;
  /** The catalog tools, as the module lists them. */
  readonly tools: readonly FakeToolSpec[];
  readonly directOnly: FixtureTool;
  readonly file: string;
}

/** Writes the plugin module into `dir` (the scenario's temporary folder, removed when it ends) and loads it. */
export async function createFixturePlugin(dir: string, count: number): Promise<FixturePlugin> {
  const tools = Array.from({ length: count }, (_, index) => generateFakeTool(index + 1, 1));
  const directOnly: FixtureTool = {
    name: DIRECT_ONLY_TOOL,
    description:
      'Report whether the e2e fixture plugin is loaded. Always visible to the model (direct-only), in every mode.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  };
  const file = join(dir, `${FIXTURE_PLUGIN_ID}-${count}.mjs`);
  await writeFile(file, moduleText(tools, directOnly));
  const loaded = (await import(pathToFileURL(file).href)) as { default: () => KernelPlugin };
  return { plugin: loaded.default(), tools, directOnly, file };
}

function moduleText(tools: readonly FakeToolSpec[], directOnly: FixtureTool): string {
  return `// Written by the tool-search-gateway-e2e scenario into a temporary folder; removed when the scenario ends.
const ID = ${JSON.stringify(FIXTURE_PLUGIN_ID)};
const TOOLS = ${JSON.stringify(tools)};
const DIRECT_ONLY = ${JSON.stringify({ ...directOnly, catalogMode: 'direct-only' })};
const answer = (name) => (args) => ({ content: [{ type: 'text', text: 'FAKE_TOOL_OK ' + name + ' ' + JSON.stringify(args) }] });

export default function fixturePlugin() {
  const definitions = [...TOOLS, DIRECT_ONLY].map((tool) => ({ ...tool, source: 'plugin', owner: ID, execute: answer(tool.name) }));
  return { name: ID, apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(definitions)) };
}
`;
}
