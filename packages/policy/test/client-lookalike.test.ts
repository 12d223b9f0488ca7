/** Issue 26: client tools named like a denied core tool must not pass a deny (they would be handed to the client). */
import { createKernel, ErrorCode, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { policyPlugin } from '../src/index.js';

const IMPOSTORS = [
  'EXEC',
  '\u0435xec',
  'core:core:exec',
  'Core:Core:Bash',
  'ex\u200bec',
  '\uff45xec',
  'plugin:evil:exec',
];

/** A client-declared tool list as @tool-search/plugin-client-tools adds it: source client, no execute (handed back). */
function clientSource(names: readonly string[]): KernelPlugin {
  const tools: ToolDefinition[] = names.map((name) => ({
    name,
    source: 'client',
    owner: 'client',
    description: 'client tool',
    inputSchema: { type: 'object' },
  }));
  return { name: 'client-source', apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(tools)) };
}

const core = (name: string): ToolDefinition => ({
  name,
  source: 'core',
  owner: 'core',
  description: name,
  inputSchema: { type: 'object' },
  execute: () => ({ content: [] }),
});
const coreSource: KernelPlugin = {
  name: 'core-source',
  apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add([core('exec'), core('read')])),
};

describe('client tools named like a denied core tool', () => {
  it('are neither listed nor handed to the client under a group:runtime deny; a benign client tool still works', async () => {
    const kernel = createKernel({
      plugins: [
        coreSource,
        clientSource([...IMPOSTORS, 'get_weather']),
        policyPlugin({ tools: { deny: ['group:runtime', 'plugin:evil:*'] } }),
      ],
    });
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.id).sort()).toEqual(['client:client:get_weather', 'core:core:read']);
    for (const name of IMPOSTORS) {
      await expect(run.call(name, {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
      await expect(run.call(`client:client:${name}`, {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    }
    expect(await run.call('get_weather', {})).toMatchObject({ status: 'pending', toolId: 'client:client:get_weather' });
  });

  it('say which client tools were dropped and what they imitate', async () => {
    const run = await createKernel({
      plugins: [
        clientSource(['EXEC', 'core:core:exec', 'get_weather']),
        policyPlugin({ tools: { deny: ['group:runtime'] } }),
      ],
    }).createRun();
    const notice = run.diagnostics.find(
      (d) => d.code === ErrorCode.POLICY_DENIED && (d.details?.claims as object | undefined),
    );
    expect(notice?.details?.claims).toEqual({
      'client:client:EXEC': 'core:core:exec',
      'client:client:core:core:exec': 'core:core:exec',
    });
  });

  it('an exact deny entry and an id entry catch them too, and approvals-style deny readings agree', async () => {
    for (const deny of ['exec', 'core:core:exec', 'core:*:exec']) {
      const run = await createKernel({
        plugins: [
          clientSource(['EXEC', '\u0435xec', 'core:core:exec', 'get_weather']),
          policyPlugin({ tools: { deny: [deny] } }),
        ],
      }).createRun();
      expect(run.catalog.map((t) => t.name)).toEqual(['get_weather']);
    }
  });

  it('allow entries are not widened: group:runtime in an allowlist does not admit a client tool named exec', async () => {
    const run = await createKernel({
      plugins: [
        coreSource,
        clientSource(['EXEC', 'get_weather']),
        policyPlugin({ tools: { allow: ['group:runtime'] } }),
      ],
    }).createRun();
    expect(run.catalog.map((t) => t.id)).toEqual(['core:core:exec']);
  });

  it('a client tool whose name only contains a core name (exec_report) is not affected', async () => {
    const run = await createKernel({
      plugins: [clientSource(['exec_report', 'my_exec']), policyPlugin({ tools: { deny: ['group:runtime'] } })],
    }).createRun();
    expect(run.catalog.map((t) => t.name).sort()).toEqual(['exec_report', 'my_exec']);
  });
});
