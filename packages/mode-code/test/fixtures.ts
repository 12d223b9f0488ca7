/** In-test plugins: a fake source, a deny policy, a blocking guard; and pid tracking for leak checks. */
import { existsSync, readFileSync } from 'node:fs';
import { createKernel, type Kernel, type KernelPlugin, type Run, type ToolDefinition } from '@tool-search/kernel';

export const SECRET_ENV = 'TOOL_SEARCH_TEST_SECRET';
export const SECRET_VALUE = 'env-secret-7f3a9c1e';
export const SECRET_FILE_VALUE = 'file-secret-b41d22aa';

const TOPICS = [
  'send email message',
  'read calendar events',
  'weather forecast city',
  'create github issue',
  'list files in folder',
  'translate text language',
  'convert currency amount',
  'search web pages',
  'resize image',
  'schedule meeting',
  'query sql database',
  'post slack message',
  'create invoice',
  'track package shipment',
  'book flight ticket',
  'summarize document',
  'generate password',
  'check stock price',
  'order pizza delivery',
  'set reminder alarm',
  'play music track',
  'read rss feed',
  'compress zip archive',
  'scan qr code',
  'lookup dns record',
  'ping host network',
  'create calendar event',
  'delete email message',
  'upload file storage',
  'download url',
  'parse csv table',
  'render markdown html',
  'count words text',
  'random number dice',
  'timezone convert time',
  'spell check text',
];

export interface FakeTool {
  readonly name: string;
  readonly description: string;
  readonly source?: 'core' | 'plugin' | 'client';
}

/** `count` tools (36 by default) named tool_<i>_<topic words>; each returns `FAKE_TOOL_OK <name> <json args>`. */
export function fakeTools(count = 36): FakeTool[] {
  return Array.from({ length: count }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length]!;
    const name = i < TOPICS.length ? topic.replaceAll(' ', '_') : `${topic.replaceAll(' ', '_')}_${i}`;
    return { name, description: `Fake tool: ${topic} (${i}).`, source: i % 2 === 0 ? 'core' : 'plugin' };
  });
}

export function fakeSourcePlugin(tools: readonly FakeTool[] = fakeTools(), name = 'test-source'): KernelPlugin {
  return {
    name,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add(
          tools.map((tool): ToolDefinition => {
            const source = tool.source ?? 'core';
            return {
              name: tool.name,
              source,
              owner: source === 'client' ? 'client' : source === 'core' ? 'core' : 'fake',
              description: tool.description,
              inputSchema: {
                type: 'object',
                properties: { q: { type: 'string' }, n: { type: 'number' } },
                additionalProperties: true,
              },
              ...(source === 'client'
                ? {}
                : {
                    execute: (args: Record<string, unknown>) => ({
                      content: [{ type: 'text' as const, text: `FAKE_TOOL_OK ${tool.name} ${JSON.stringify(args)}` }],
                    }),
                  }),
            };
          }),
        );
      });
    },
  };
}

/** Drops tools by name in `filterPolicy` (a test policy). */
export function denyPlugin(names: readonly string[]): KernelPlugin {
  return {
    name: 'test-deny',
    apply({ hooks }) {
      hooks.filterPolicy.tap((tools) => tools.filter((tool) => !names.includes(tool.name)));
    },
  };
}

/** Blocks calls to tools by name in `beforeToolCall`. */
export function blockPlugin(names: readonly string[]): KernelPlugin {
  return {
    name: 'test-block',
    apply({ hooks }) {
      hooks.beforeToolCall.tapPromise(async (call) =>
        names.includes(call.tool.name) ? { action: 'block', reason: `blocked by test: ${call.tool.name}` } : undefined,
      );
    },
  };
}

export async function makeRun(
  plugins: readonly KernelPlugin[],
): Promise<{ kernel: Kernel; run: Run; close(): Promise<void> }> {
  const kernel = createKernel({ plugins });
  const run = await kernel.createRun({ agentId: 'test' });
  return {
    kernel,
    run,
    async close() {
      await run.close();
      await kernel.close();
    },
  };
}

/** Collects the pids of sandbox children; `alive()` lists those that still exist. */
export function pidTracker() {
  const pids: number[] = [];
  return {
    onSpawn: (pid: number) => void pids.push(pid),
    pids,
    alive: () => pids.filter(isAlive),
  };
}

/**
 * Whether the process still runs. A zombie does not: it has ended and only waits to be reaped, which for an orphan
 * is PID 1's job, done when PID 1 gets to it (every ~2 s in this CI's VM), not when the process ended.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  if (!existsSync('/proc/self/stat')) return true; // no procfs: the signal check above is all there is
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false; // gone between the two checks
  }
}

/** A tool that waits until its call is aborted, recording that the abort reached it. */
export function slowToolPlugin(state: { started: number; aborted: number }): KernelPlugin {
  return {
    name: 'test-slow',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add({
          name: 'slow_tool',
          source: 'plugin',
          owner: 'slow',
          description: 'Fake tool that never finishes on its own.',
          inputSchema: { type: 'object' },
          execute: (_args, ctx) =>
            new Promise((_, reject) => {
              state.started += 1;
              ctx.signal.addEventListener('abort', () => {
                state.aborted += 1;
                reject(new Error('aborted'));
              });
            }),
        });
      });
    },
  };
}

/** A stand-in `tools` mode, so a fallback from code mode has somewhere to land. */
export function toolsModeStub(): KernelPlugin {
  return {
    name: 'test-tools-mode',
    apply({ hooks }) {
      hooks.materialize.for('tools').tap((draft) => {
        draft.tools.push({
          name: 'tool_search',
          description: 'stub',
          inputSchema: { type: 'object' },
          handler: async () => ({ content: [] }),
        });
        return draft;
      });
    },
  };
}
