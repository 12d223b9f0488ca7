import OpenAI from 'openai';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { fakeTool, toolSource } from '@tool-search/testing';
import { openaiUpstream, startGatewayServer, type GatewayServer, type GatewayServerOptions, type Upstream } from '@tool-search/gateway';

export const ask = (target: string) => [{ role: 'user' as const, content: `tool search qa check target=${target}` }];

/** A tool that runs until its call is aborted, recording what it saw. */
export function slowTool(seen: { started: number; aborted: number }): KernelPlugin {
  const tool = fakeTool('slow_tool', 'plugin', 'slow', 'Waits until it is cancelled', {
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        seen.started++;
        ctx.signal.addEventListener('abort', () => {
          seen.aborted++;
          resolve({ content: [{ type: 'text', text: 'aborted' }], isError: true });
        });
      }),
  });
  return toolSource([tool], 'slow-source');
}

export interface Harness {
  readonly openai: MockOpenAI;
  gateway(mode: string, extra?: Partial<GatewayServerOptions> & { upstream?: Upstream; plugins?: KernelPlugin[] }): Promise<{ server: GatewayServer; kernel: Kernel; client: OpenAI }>;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const openai = await startMockOpenAI();
  const kernels: Kernel[] = [];
  const servers: GatewayServer[] = [];
  return {
    openai,
    async gateway(mode, extra = {}) {
      const { plugins = [], ...options } = extra;
      const kernel = createKernel({
        plugins: [fakeCatalogPlugin({ tools: 36, core: true }), clientToolsPlugin(), toolsModePlugin(), directoryModePlugin(), ...plugins],
      });
      kernels.push(kernel);
      const server = await startGatewayServer({
        kernel,
        upstream: options.upstream ?? openaiUpstream(new OpenAI({ baseURL: openai.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
        mode,
        log: () => undefined,
        countTokens: false,
        ...options,
      });
      servers.push(server);
      return { server, kernel, client: new OpenAI({ baseURL: server.url, apiKey: options.token ?? 'none', maxRetries: 0 }) };
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(kernels.map((k) => k.close()));
      await openai.close();
    },
  };
}
