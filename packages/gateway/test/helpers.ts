import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { fakeTool, toolSource } from '@tool-search/testing';
import {
  anthropicUpstream,
  openaiUpstream,
  startGatewayServer,
  type GatewayServer,
  type GatewayServerOptions,
  type Upstream,
} from '@tool-search/gateway';

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

export type UpstreamKind = 'openai' | 'anthropic';
export const UPSTREAMS: readonly UpstreamKind[] = ['openai', 'anthropic'];

export interface Harness {
  readonly openai: MockOpenAI;
  readonly anthropic: MockAnthropic;
  upstream(kind: UpstreamKind): Upstream;
  /** What the mock of that kind received since `from`, chat or messages requests only. */
  received(kind: UpstreamKind, from?: number): { body: Record<string, unknown>; raw: string }[];
  gateway(
    mode: string,
    extra?: Partial<GatewayServerOptions> & { upstream?: Upstream; plugins?: KernelPlugin[] },
  ): Promise<{ server: GatewayServer; kernel: Kernel; client: OpenAI }>;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const openai = await startMockOpenAI();
  const anthropic = await startMockAnthropic();
  const upstream = (kind: UpstreamKind): Upstream =>
    kind === 'openai'
      ? openaiUpstream(new OpenAI({ baseURL: openai.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model')
      : anthropicUpstream(new Anthropic({ baseURL: anthropic.url, apiKey: 'mock', maxRetries: 0 }), 'mock-claude');
  const kernels: Kernel[] = [];
  const servers: GatewayServer[] = [];
  return {
    openai,
    anthropic,
    upstream,
    received: (kind, from = 0) =>
      (kind === 'openai' ? openai : anthropic).requests
        .slice(from)
        .filter((r) => r.method === 'POST')
        .map((r) => ({ body: r.body as Record<string, unknown>, raw: r.raw })),
    async gateway(mode, extra = {}) {
      const { plugins = [], ...options } = extra;
      const kernel = createKernel({
        plugins: [
          fakeCatalogPlugin({ tools: 36, core: true }),
          clientToolsPlugin(),
          toolsModePlugin(),
          directoryModePlugin(),
          ...plugins,
        ],
      });
      kernels.push(kernel);
      const server = await startGatewayServer({
        kernel,
        upstream: options.upstream ?? upstream('openai'),
        mode,
        log: () => undefined,
        countTokens: false,
        ...options,
      });
      servers.push(server);
      return {
        server,
        kernel,
        client: new OpenAI({ baseURL: server.url, apiKey: options.token ?? 'none', maxRetries: 0 }),
      };
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(kernels.map((k) => k.close()));
      await openai.close();
      await anthropic.close();
    },
  };
}

/** Polls a condition (no timing assertion: the test fails by vitest's timeout if it never holds). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
