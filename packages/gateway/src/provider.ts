/** Builds the official `openai` client from `provider: { baseURL, apiKey?, apiKeyEnv?, model }`. */
import OpenAI from 'openai';
import { ConfigError } from '@tool-search/kernel';

export interface ProviderConfig {
  readonly baseURL?: string;
  readonly apiKey?: string;
  /** Name of the environment variable that holds the key (preferred over `apiKey` in files). */
  readonly apiKeyEnv?: string;
  readonly model?: string;
}

export function createProviderClient(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): { client: OpenAI; model: string } {
  const apiKey = config.apiKey ?? (config.apiKeyEnv ? env[config.apiKeyEnv] : env.OPENAI_API_KEY);
  if (!apiKey) {
    throw new ConfigError('/provider/apiKeyEnv', 'required', `No API key: set ${config.apiKeyEnv ?? 'OPENAI_API_KEY'} or use --provider-mode mock-openai`);
  }
  if (!config.model) throw new ConfigError('/provider/model', 'required', 'provider.model is required');
  return { client: new OpenAI({ apiKey, ...(config.baseURL ? { baseURL: config.baseURL } : {}), maxRetries: 0 }), model: config.model };
}
