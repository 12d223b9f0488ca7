/** The in-process mock providers of `gateway --provider-mode mock-openai | mock-anthropic`: no key, no network. */
import type { ProviderConfig } from '@tool-search/config';

export const PROVIDER_MODES = ['config', 'mock-openai', 'mock-anthropic'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];
/** The model name the gateway sends to the in-process mock (it answers to any). */
export const MOCK_PROVIDER_MODEL = 'mock-model';
/** The model name sent to the in-process Anthropic mock. */
export const MOCK_ANTHROPIC_MODEL = 'mock-claude';

/** The mock of `mode` started, as a config `provider`; undefined for `config` (the config's own provider). */
export async function mockProvider(
  mode: ProviderMode,
): Promise<{ provider: ProviderConfig; close(): Promise<void> } | undefined> {
  if (mode === 'mock-openai') {
    const { startMockOpenAI } = await import('@tool-search/mock-openai');
    const mock = await startMockOpenAI();
    return { provider: { baseURL: mock.url, apiKey: 'mock', model: MOCK_PROVIDER_MODEL }, close: () => mock.close() };
  }
  if (mode === 'mock-anthropic') {
    const { startMockAnthropic } = await import('@tool-search/mock-anthropic');
    const mock = await startMockAnthropic();
    return {
      provider: { kind: 'anthropic', baseURL: mock.url, apiKey: 'mock', model: MOCK_ANTHROPIC_MODEL },
      close: () => mock.close(),
    };
  }
  return undefined;
}
