/** A kernel with a few scripted tools and a test mode that routes calls the way real modes do. */
import {
  createKernel,
  type CallOrigin,
  type KernelPlugin,
  type Run,
  type RunRequest,
  type ToolCallOutcome,
  type ToolDefinition,
} from '@tool-search/kernel';

export interface Scripted {
  /** What `job_status` reports next. */
  jobState: string;
  counter: number;
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

export function scriptedTools(state: Scripted): ToolDefinition[] {
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  const base = { source: 'plugin' as const, owner: 'test', inputSchema: object };
  return [
    {
      ...base,
      name: 'read_file',
      description: 'Read a file',
      execute: (args) => text(`contents of ${String(args.path)}`),
    },
    { ...base, name: 'write_file', description: 'Write a file', execute: () => text('written') },
    { ...base, name: 'next_item', description: 'Next item of a queue', execute: () => text(`item ${++state.counter}`) },
    {
      ...base,
      name: 'clock',
      description: 'Reads the clock',
      execute: () => ({
        content: [
          {
            type: 'text',
            text: `Now ${new Date(Date.now() + ++state.counter * 1000).toISOString()}, took ${state.counter}ms, pid ${4000 + state.counter}`,
          },
        ],
        structuredContent: {
          ok: true,
          timestamp: Date.now() + state.counter,
          elapsedMs: state.counter,
          requestId: `r${state.counter}`,
        },
      }),
    },
    {
      ...base,
      name: 'job_status',
      description: 'Status of a job',
      execute: () =>
        text(
          JSON.stringify({ state: state.jobState, checkedAt: new Date(Date.now() + ++state.counter).toISOString() }),
        ),
    },
    {
      ...base,
      name: 'process',
      description: 'Manage a process',
      execute: (args) => text(`${String(args.action)}: still running`),
    },
    {
      ...base,
      name: 'check_build',
      description: 'Build checker',
      meta: { pollLike: true },
      execute: () => text('building'),
    },
    { ...base, name: 'deploy_watch', description: 'Watches a deploy', execute: () => text('deploying') },
  ];
}

export function scriptedSource(state: Scripted): KernelPlugin {
  return {
    name: 'test-source',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(scriptedTools(state)));
    },
  };
}

/** A mode like mode-tools/mode-directory: a `tool_call` control tool and hidden names. */
export const testMode: KernelPlugin = {
  name: 'test-mode',
  apply({ hooks }) {
    hooks.materialize.for('test').tap((draft, ctx) => {
      draft.tools.push({
        name: 'tool_call',
        description: 'Calls a catalog tool',
        inputSchema: object,
        handler: async (args, control) => {
          const outcome = await control.run.call(String(args.name), args.arguments, { origin: 'tool_call' });
          return outcome.status === 'ok'
            ? outcome.result
            : { content: [{ type: 'text', text: JSON.stringify(outcome) }], isError: true };
        },
      });
      draft.resolveHidden = (name) => ctx.searchable.find((tool) => tool.name === name)?.id;
      return draft;
    });
  },
};

export async function createTestRun(
  plugins: readonly KernelPlugin[],
  request: RunRequest = {},
  state: Scripted = { jobState: 'running', counter: 0 },
) {
  const kernel = createKernel({ plugins: [scriptedSource(state), testMode, ...plugins] });
  const run = await kernel.createRun({ sessionId: 'session-1', ...request });
  return { kernel, run, state };
}

/** Calls `name` `times` times and returns every outcome. */
export async function repeat(
  run: Run,
  times: number,
  name: string,
  args: Record<string, unknown> = {},
  origin: CallOrigin = 'direct',
): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  for (let i = 0; i < times; i++) outcomes.push(await run.call(name, args, { origin }));
  return outcomes;
}

export const statuses = (outcomes: readonly ToolCallOutcome[]) => outcomes.map((outcome) => outcome.status);
