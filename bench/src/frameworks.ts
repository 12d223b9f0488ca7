/**
 * Issue 29's benchmark row: the search a framework ships with against Tool Search's ranker plugged into that same
 * framework, on the shared real catalogs and labeled queries. Both run through the AI SDK's real `generateText`: a
 * scripted model (the AI SDK's own `MockLanguageModelV4`) calls `tool_search` with each query, the SDK's bound
 * search runs over the deferred tools, and the ranked names it returns are scored. "built-in" is `toolSearch()`
 * without `search` (the SDK's keyword match over names and descriptions); "Tool Search" is the `ToolSet` of
 * `@tool-search/ai-sdk` (the same deferred tools, its `search` is the run's ranker). Same tools, names and
 * descriptions for both; metrics from `evaluate` (the code `tool-search eval` uses). "Mastra" is Mastra's
 * `ToolSearchProcessor` (its BM25 over name + description, `topK` 10) over the same names and descriptions, through
 * its public `processInputStep` → `search_tools`; Mastra has no search callback to plug a ranker into.
 */
import { generateText, isStepCount, toolSearch, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { createToolSearch } from '@tool-search/ai-sdk';
import { evaluate, loadSnapshot, splitDev, type EvalQuery, type Metrics, type SnapshotName } from '@tool-search/search';
import { toolSource } from '@tool-search/testing';
import { hasData } from './catalogs.js';

export interface FrameworkRow {
  readonly dataset: string;
  readonly tools: number;
  readonly queries: number;
  /** The framework's own search (AI SDK `toolSearch()` default). */
  readonly builtIn: Metrics;
  /** Mastra's `ToolSearchProcessor` search over the same tools. */
  readonly mastra: Metrics;
  /** Tool Search's ranker as the framework's `search` callback. */
  readonly toolSearch: Metrics;
}

const SETS: readonly { name: SnapshotName; files: string[] }[] = [
  { name: 'mcp-catalog', files: ['mcp-catalog.json', 'mcp-catalog-queries.json'] },
  { name: 'livemcpbench', files: ['livemcpbench-retrieval.json'] },
  { name: 'toolbench', files: ['toolbench-stable-retrieval.json'] },
];

/** Results one search returns: 10, so MRR@10 and Recall@10 read the same depth as the other quality tables. */
const DEPTH = 10;

export async function measureFrameworks(dataDir: string, only?: readonly SnapshotName[]): Promise<FrameworkRow[]> {
  const rows: FrameworkRow[] = [];
  for (const set of SETS) {
    if ((only && !only.includes(set.name)) || !hasData(dataDir, ...set.files)) continue;
    const snapshot = loadSnapshot(dataDir, set.name);
    // The snapshot's tools listed through a kernel source, as an MCP catalog; kernel ids map back to the labels' ids.
    // ToolBench owners are API names with spaces ("Weather API"), which the kernel refuses as owners: spaces become `_`.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in owner names become `_`
    const safe = (text: string) => text.replace(/[\s\u0000-\u001f]+/gu, '_');
    const evalId = new Map(snapshot.descriptors.map((d) => [`mcp:${safe(d.owner)}:${safe(d.name)}`, d.id]));
    const source = toolSource(
      snapshot.descriptors.map((d) => ({
        name: safe(d.name),
        source: 'mcp' as const,
        owner: safe(d.owner),
        description: d.description,
        inputSchema: d.inputSchema,
      })),
      'snapshot',
    );
    const adapter = await createToolSearch({ config: { plugins: {} }, plugins: [source], maxResults: DEPTH });
    try {
      const idOf = new Map<string, string>();
      for (const tool of adapter.run.catalog) {
        const name = adapter.toolName(tool.id);
        const id = evalId.get(tool.id);
        if (name !== undefined && id !== undefined) idOf.set(name, id);
      }
      const builtIn: ToolSet = { ...adapter.tools, tool_search: toolSearch({ maxResults: DEPTH }) };
      const mastra = await mastraSearch(
        Object.entries(adapter.tools)
          .filter(([name]) => idOf.has(name))
          .map(([name, tool]) => [name, typeof tool.description === 'string' ? tool.description : ''] as const),
      );
      const rankWith = async (search: (query: string) => Promise<string[]>, queries: readonly EvalQuery[]) => {
        const ranked = new Map<string, string[]>();
        for (const { query } of queries)
          if (!ranked.has(query))
            ranked.set(
              query,
              (await search(query)).map((name) => idOf.get(name) ?? name),
            );
        return { search: (query: string) => ({ hits: (ranked.get(query) ?? []).map((id) => ({ id })) }) };
      };
      const rank = (tools: ToolSet, queries: readonly EvalQuery[]) =>
        rankWith((query) => searchThroughSdk(tools, query), queries);
      const row = async (dataset: string, queries: readonly EvalQuery[]): Promise<FrameworkRow> => ({
        dataset,
        tools: idOf.size,
        queries: queries.length,
        builtIn: evaluate(await rank(builtIn, queries), queries, { k: DEPTH }).metrics,
        mastra: evaluate(await rankWith(mastra, queries), queries, { k: DEPTH }).metrics,
        toolSearch: evaluate(await rank(adapter.tools, queries), queries, { k: DEPTH }).metrics,
      });
      rows.push(await row(set.name, snapshot.queries));
      if (set.name === 'mcp-catalog')
        rows.push(await row('mcp-catalog (held-out)', splitDev(snapshot.queries).heldOut));
    } finally {
      await adapter.close();
    }
  }
  return rows;
}

/** One `generateText` step: the scripted model calls `tool_search { query }`; the names the SDK's search returned, in rank order. */
async function searchThroughSdk(tools: ToolSet, query: string): Promise<string[]> {
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        { type: 'tool-call', toolCallId: 'search-1', toolName: 'tool_search', input: JSON.stringify({ query }) },
      ],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    }),
  });
  const { steps } = await generateText({ model, tools, prompt: query, stopWhen: isStepCount(1) });
  const output = steps[0]?.toolResults.find((result) => result.toolName === 'tool_search')?.output as
    | { tools?: { name: string }[] }
    | undefined;
  if (!output?.tools) throw new Error(`tool_search gave no result for "${query}"`);
  return output.tools.map((tool) => tool.name);
}

/** Mastra's `search_tools`, as its processor hands it to an agent step; names in its rank order. */
async function mastraSearch(
  entries: readonly (readonly [string, string])[],
): Promise<(query: string) => Promise<string[]>> {
  const tools = Object.fromEntries(
    entries.map(([id, description]) => [id, createTool({ id, description, execute: async () => 'unused' })]),
  );
  const processor = new ToolSearchProcessor({ tools, search: { topK: DEPTH } });
  const step = await processor.processInputStep({
    tools: {},
    messages: [],
    stepNumber: 0,
    messageList: { addSystem() {} },
  } as never);
  const searchTool = step.tools.search_tools;
  return async (query) => {
    const out = (await searchTool.execute!({ query }, {} as never)) as { results?: { name: string }[] };
    return (out.results ?? []).map((result) => result.name);
  };
}

export function frameworksTable(rows: readonly FrameworkRow[]): string {
  const f = (value: number) => value.toFixed(3);
  return [
    "| data set | tools | queries | AI SDK `toolSearch()` built-in Hit@5 / MRR | Mastra `ToolSearchProcessor` Hit@5 / MRR | AI SDK `toolSearch` + Tool Search's ranker Hit@5 / MRR |",
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.dataset} | ${r.tools.toLocaleString('en-US')} | ${r.queries} | ${f(r.builtIn.hitAt5)} / ${f(r.builtIn.mrr)} | ${f(r.mastra.hitAt5)} / ${f(r.mastra.mrr)} | **${f(r.toolSearch.hitAt5)} / ${f(r.toolSearch.mrr)}** |`,
    ),
  ].join('\n');
}

/** BENCHMARKS.md section 9, as `npm run bench:frameworks` writes it to bench/frameworks.md (`npm run bench` appends that file). */
export function frameworksSection(
  rows: readonly FrameworkRow[],
  meta: { readonly date: string; readonly seconds: number; readonly node: string; readonly dataDir: string },
): string {
  return [
    '## 9. Tool search inside the agent frameworks',
    '',
    `Generated by \`npm run bench:frameworks -w @tool-search/bench\` (bench/src/frameworks.ts) on ${meta.date}, in ${meta.seconds.toFixed(0)} s, Node ${meta.node},`,
    `data \`${meta.dataDir}\`; a separate script because it runs every query through the frameworks' own code (\`npm run bench\` appends its last output).`,
    'Hit@5 = a labeled tool in the top 5; MRR = 1/rank of the first labeled tool in the top 10 (the `evaluate` of section 2).',
    "Each query goes through the AI SDK's real `generateText`: its own test model (`MockLanguageModelV4`) calls `tool_search`",
    "with the query and the SDK's bound search answers over the deferred tools. **Built-in** is `toolSearch({ maxResults: 10 })`",
    "without `search` (the SDK's keyword match: name words count 2, description words 1); **with Tool Search's ranker** is the",
    '`ToolSet` of `@tool-search/ai-sdk` (deferred mode, `maxResults: 10`): the same tools, names and descriptions, its `search`',
    "is the run's ranker. **Mastra** is `ToolSearchProcessor` from `@mastra/core` 1.71 (BM25 over name + description, `topK` 10)",
    'through its public `processInputStep` → `search_tools`, over the same names and descriptions; it has no search callback to',
    'plug a ranker into. Mastra and the AI SDK 7 declare Node ≥ 22.13 / ≥ 22; both install (npm warns) and run on Node 20 here.',
    'The catalogs are listed through a kernel source (ToolBench owners with spaces become `_`), so a tool the kernel refuses',
    '(an invalid input schema, a name shadowed on one server) is in no column; its labels still count as misses for every column.',
    '',
    frameworksTable(rows),
    '',
  ].join('\n');
}
