/**
 * What the sessions tests share: the scripted OpenAI-compatible provider over HTTP, and kernels whose session host
 * runs sub-agent turns through the gateway's real turn loop against it (closed after each test).
 */
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin, type ToolCallOutcome } from '@tool-search/kernel';
import { openaiUpstream, sessionTurnRunner } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import type { SessionHost } from '@tool-search/sessions';

export interface SessionsTestbed {
  /** The mock provider (started before the file's tests). */
  readonly mock: MockOpenAI;
  /** A kernel of `plugins`, `host` bound to run its sessions' turns (direct mode) against the mock. */
  kernel(host: SessionHost, plugins: readonly KernelPlugin[]): Kernel;
  /** Closes `kernel` after the test (one a test built itself, e.g. with its own turn runner). */
  track(kernel: Kernel): Kernel;
}

/** Registers the file's hooks: the mock starts before its tests, each test's kernels close after it. */
export function useSessionsTestbed(): SessionsTestbed {
  let mock: MockOpenAI | undefined;
  const kernels: Kernel[] = [];
  beforeAll(async () => {
    mock = await startMockOpenAI();
  });
  afterEach(async () => {
    await Promise.all(kernels.splice(0).map((k) => k.close()));
  });
  afterAll(async () => {
    await mock?.close();
  });
  return {
    get mock() {
      if (!mock) throw new Error('the mock provider starts in beforeAll');
      return mock;
    },
    track(kernel) {
      kernels.push(kernel);
      return kernel;
    },
    kernel(host, plugins) {
      const kernel = this.track(createKernel({ plugins: [...plugins] }));
      const client = new OpenAI({ baseURL: this.mock.url, apiKey: 'mock', maxRetries: 0 });
      host.bind(
        sessionTurnRunner({
          kernel,
          mode: 'direct',
          countTokens: false,
          upstream: openaiUpstream(client, 'mock-model'),
        }),
      );
      return kernel;
    },
  };
}

/** An ok outcome's structured content (anything else fails the test with the outcome). */
export const data = (outcome: ToolCallOutcome): Record<string, any> => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return outcome.result.structuredContent as Record<string, any>;
};

/** An outcome's error code, or its status when it has none. */
export const code = (outcome: ToolCallOutcome): string =>
  outcome.status === 'error' ? outcome.error.code : outcome.status;
