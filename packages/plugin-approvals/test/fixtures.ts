/** A kernel with tools from several sources, execution counters, and a test mode that routes calls like real modes. */
import { createKernel, type KernelPlugin, type RunRequest, type ToolDefinition } from '@tool-search/kernel';

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

export function toolDefinitions(runs: Map<string, number>): ToolDefinition[] {
  const run = (name: string) => () => {
    runs.set(name, (runs.get(name) ?? 0) + 1);
    return { content: [{ type: 'text' as const, text: `${name} ran` }] };
  };
  return [
    {
      name: 'read_file',
      source: 'plugin',
      owner: 'fs',
      description: 'Read a file',
      inputSchema: object,
      execute: run('read_file'),
    },
    {
      name: 'exec',
      source: 'core',
      owner: 'core',
      description: 'Run a command',
      inputSchema: object,
      execute: run('exec'),
    },
    {
      name: 'create_issue',
      source: 'mcp',
      owner: 'github',
      description: 'Create an issue',
      inputSchema: object,
      execute: run('create_issue'),
    },
    {
      name: 'delete_repo',
      source: 'mcp',
      owner: 'github',
      description: 'Delete a repository',
      inputSchema: object,
      annotations: { destructiveHint: true },
      execute: run('delete_repo'),
    },
    {
      name: 'list_repos',
      source: 'mcp',
      owner: 'github',
      description: 'List repositories',
      inputSchema: object,
      annotations: { readOnlyHint: true, destructiveHint: false },
      execute: run('list_repos'),
    },
  ];
}

const testMode: KernelPlugin = {
  name: 'test-mode',
  apply({ hooks }) {
    hooks.materialize.for('test').tap((draft, ctx) => {
      draft.tools.push({
        name: 'tool_call',
        description: 'Calls a catalog tool',
        inputSchema: object,
        handler: async (args, control) => {
          const outcome = await control.run.call(String(args.name), args.arguments, { origin: 'tool_call' });
          return { content: [{ type: 'text', text: JSON.stringify(outcome) }], isError: outcome.status !== 'ok' };
        },
      });
      draft.resolveHidden = (name) => ctx.searchable.find((tool) => tool.name === name)?.id;
      return draft;
    });
  },
};

export async function createTestRun(plugins: readonly KernelPlugin[], request: RunRequest = {}) {
  const runs = new Map<string, number>();
  const source: KernelPlugin = {
    name: 'test-source',
    apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(toolDefinitions(runs))),
  };
  const kernel = createKernel({ plugins: [source, testMode, ...plugins] });
  const run = await kernel.createRun({ sessionId: 'session-1', agentId: 'main', ...request });
  return { kernel, run, runs };
}

/** Resolves once `predicate` holds, checking after each macrotask (no fixed delays). */
export async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!predicate()) throw new Error('condition never held');
}
