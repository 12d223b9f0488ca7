/** In-test plugins: a fake source, a policy that drops a tool, a guard that blocks one. */
import { createKernel, type KernelPlugin, type ToolDefinition, type ToolResult } from '@tool-search/kernel';
import { fakeTool, toolSource } from '@tool-search/testing';
import { toolsModePlugin, type ToolsModeOptions } from '../src/index.js';

const objectSchema = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

export const TOOLS: readonly ToolDefinition[] = [
  fakeTool('read_file', 'core', 'core', 'Read a text file from the workspace and return its contents.', {
    inputSchema: objectSchema({ path: { type: 'string' } }, ['path']),
  }),
  fakeTool('write_file', 'core', 'core', 'Write text to a file in the workspace.', {
    inputSchema: objectSchema({ path: { type: 'string' }, text: { type: 'string' } }, ['path', 'text']),
  }),
  fakeTool('secret_tool', 'core', 'core', 'Reveal secret credentials from the vault.'),
  fakeTool('dangerous_delete', 'plugin', 'cleanup', 'Delete every file in a directory tree.'),
  fakeTool('weather_forecast', 'plugin', 'weather', 'Get the weather forecast for a city.', {
    inputSchema: objectSchema({ city: { type: 'string' } }, ['city']),
  }),
  fakeTool('message', 'core', 'core', 'Send a message to the user.', { catalogMode: 'direct-only' }),
  {
    name: 'browser_click',
    source: 'client',
    owner: 'client',
    description: 'Click an element in the browser.',
    inputSchema: objectSchema(),
  },
];

export function sourcePlugin(tools: readonly ToolDefinition[] = TOOLS): KernelPlugin {
  return toolSource(tools);
}

/** Drops every tool named `secret_tool` (fail-closed checks). */
export function denyPolicyPlugin(): KernelPlugin {
  return {
    name: 'test-policy',
    apply: ({ hooks }) => hooks.filterPolicy.tap((tools) => tools.filter((tool) => tool.name !== 'secret_tool')),
  };
}

/** Blocks every call to `dangerous_delete`. */
export function blockPlugin(): KernelPlugin {
  return {
    name: 'test-guard',
    apply: ({ hooks }) =>
      hooks.beforeToolCall.tap((call) =>
        call.tool.name === 'dangerous_delete' ? { action: 'block', reason: 'deletes are not approved' } : undefined,
      ),
  };
}

export async function toolsRun(options: ToolsModeOptions = {}, tools: readonly ToolDefinition[] = TOOLS) {
  const kernel = createKernel({
    plugins: [sourcePlugin(tools), denyPolicyPlugin(), blockPlugin(), toolsModePlugin(options)],
  });
  const run = await kernel.createRun({ agentId: 'test', provider: 'openai', model: 'test-model', sessionId: 's1' });
  const exposure = await run.exposure('tools');
  return { kernel, run, exposure };
}

/** The result of a control tool called through the exposure (what a model would get). */
export async function control(
  exposure: Awaited<ReturnType<typeof toolsRun>>['exposure'],
  name: string,
  args: unknown,
): Promise<ToolResult> {
  const outcome = await exposure.call(name, args);
  // A tool_call whose inner call failed or was blocked reports that status, with the control tool's result.
  if (outcome.status === 'pending' || !outcome.result)
    throw new Error(`control tool ${name} did not answer: ${JSON.stringify(outcome)}`);
  return outcome.result;
}

export function text(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export function errorCode(result: ToolResult): string | undefined {
  return (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
}
