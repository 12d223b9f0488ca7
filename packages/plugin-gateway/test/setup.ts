/** The gateway tool on a kernel of its own, over a config file in a fresh folder, with an approver (default: allow). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin, type ToolCallOutcome } from '@tool-search/kernel';
import { approvalsPlugin, type Approver } from '@tool-search/plugin-approvals';
import { gatewayPlugin, type RestartRequest } from '../src/index.js';

export const FILE = `// the operator's notes stay
{
  /* the model the gateway talks to */
  provider: { baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: "sk-secret" },
  tools: { toolSearch: { mode: "tools" } }, // trailing note
}
`;

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

/** An approver that allows every call (the tests of what the tool does once a human said yes). */
const allowAll: Approver = async () => 'allow';

export function setup(
  options: {
    text?: string;
    restart?: boolean;
    check?: (config: any) => unknown;
    /** The approver of the gateway's changes: allow (default), another, `null` (none configured), or `false` (no approvals plugin at all). */
    approve?: Approver | null | false;
    /** More plugins (a policy). */
    plugins?: KernelPlugin[];
    agentId?: string;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-tool-'));
  const configPath = join(dir, 'tool-search.json');
  if (options.text !== undefined) writeFileSync(configPath, options.text);
  const restarts: RestartRequest[] = [];
  const kernel = createKernel({
    plugins: [
      gatewayPlugin({
        control: {
          configPath,
          check: async (config) => void (await options.check?.(config)),
          restart: (request) => void restarts.push(request),
        },
        ...(options.restart !== undefined ? { restart: options.restart } : {}),
      }),
      ...(options.plugins ?? []),
      ...(options.approve === false
        ? []
        : [approvalsPlugin({ approve: options.approve === undefined ? allowAll : options.approve })]),
    ],
  });
  kernels.push(kernel);
  const call = async (args: Record<string, unknown>) => {
    const run = await kernel.createRun({
      sessionId: 'asker',
      ...(options.agentId ? { agentId: options.agentId } : {}),
    });
    try {
      return await run.call('gateway', args);
    } catch (error) {
      // Arguments that break the tool's schema are refused before the tool runs.
      return {
        status: 'error',
        toolId: 'core:core:gateway',
        error: { code: (error as { code: string }).code, message: String(error) },
      } as unknown as ToolCallOutcome;
    } finally {
      await run.close();
    }
  };
  return { configPath, restarts, call, kernel };
}

export const data = (outcome: ToolCallOutcome) => {
  if (outcome.status !== 'ok') throw new Error(`${outcome.status}: ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
};
export const codeOf = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);
