/**
 * `llmTaskPlugin`: OpenClaw's optional `llm-task` tool, a JSON-only LLM step. The tool sends a prompt and an input to
 * the provider configured for it (OpenAI Chat Completions wire format, any compatible base URL), asks for JSON only,
 * parses the answer and validates it against the caller's JSON Schema (Ajv); an answer that does not parse or fit is
 * retried once with the reason, and a second failure is `LLM_TASK_INVALID_OUTPUT`. A plugin module: configs load it
 * by name, `plugins: { "@tool-search/plugin-llm-task": {} }`; it exports `wants = ['provider']`, so the preset hands it
 * the config's `provider` and it answers through the deployment's model; its own `baseURL` / `model` / `apiKey` win.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import OpenAI from 'openai';
import { ErrorCode, ToolSearchError, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { LlmTaskErrors } from './errors.js';

export const LLM_TASK_PLUGIN_NAME = '@tool-search/plugin-llm-task';

export interface LlmTaskPluginOptions {
  /** The provider's OpenAI-compatible base URL (`https://api.openai.com/v1`, a gateway, a local server). Default: the host's `provider.baseURL`. */
  readonly baseURL?: string;
  /** The model asked by default. Default: the host's `provider.model`. */
  readonly model?: string;
  /** The API key, or the environment variable holding it (default `OPENAI_API_KEY`). */
  readonly apiKey?: string;
  readonly apiKeyEnv?: string;
  /** Models a call may pick with `model` (default: only `model`). */
  readonly allowedModels?: readonly string[];
  /** Largest answer in tokens (default 2048) and the longest call (default 60000 ms). */
  readonly maxTokens?: number;
  readonly timeoutMs?: number;
}

export const optionsSchema = {
  type: 'object',
  properties: {
    baseURL: { type: 'string', pattern: '^https?://' },
    model: { type: 'string', minLength: 1 },
    apiKey: { type: 'string', minLength: 1 },
    apiKeyEnv: { type: 'string', minLength: 1 },
    allowedModels: { type: 'array', items: { type: 'string', minLength: 1 } },
    maxTokens: { type: 'integer', minimum: 1, maximum: 200_000 },
    timeoutMs: { type: 'integer', minimum: 1000, maximum: 600_000 },
  },
  additionalProperties: false,
} as const;

/** The plugin-module opt-in: the preset hands the factory the config's `provider` as its second argument. */
export const wants = ['provider'] as const;

/** The host's provider (the config's top-level `provider`), as the preset hands it to a module that wants it. */
export interface LlmTaskProvider {
  readonly kind?: 'openai' | 'anthropic';
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly apiKeyEnv?: string;
}

/** The factory's second argument: the host's provider, and the environment the API key variable is read from. */
export interface LlmTaskHost {
  readonly provider?: LlmTaskProvider;
  readonly env?: NodeJS.ProcessEnv;
}

type Resolved = LlmTaskPluginOptions & { readonly baseURL: string; readonly model: string; readonly apiKey: string };

const SYSTEM =
  'You are a JSON-only function. Reply with one JSON value and nothing else: no prose, no Markdown code fences. ' +
  'If a JSON Schema is given, the value must satisfy it.';

export function llmTaskPlugin(options: LlmTaskPluginOptions = {}, host: LlmTaskHost = {}): KernelPlugin {
  const resolved = resolve(options, host.provider, host.env ?? process.env);
  const client = new OpenAI({ baseURL: resolved.baseURL, apiKey: resolved.apiKey || 'unset', maxRetries: 0, timeout: resolved.timeoutMs ?? 60_000 });
  const tool = llmTask(client, resolved);
  return {
    name: LLM_TASK_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add([tool]));
    },
  };
}

/**
 * The plugin's own options over the host's provider. The provider counts only when it speaks Chat Completions
 * (`kind` unset or `openai`); its key comes with it (`apiKey`, else `apiKeyEnv`) unless the options name a key.
 */
function resolve(options: LlmTaskPluginOptions, provider: LlmTaskProvider | undefined, env: NodeJS.ProcessEnv): Resolved {
  const compatible = provider !== undefined && (provider.kind === undefined || provider.kind === 'openai');
  const fromProvider = compatible ? provider : undefined;
  const baseURL = options.baseURL ?? fromProvider?.baseURL;
  const model = options.model ?? fromProvider?.model;
  if (baseURL === undefined || model === undefined) {
    const why =
      provider !== undefined && !compatible
        ? `the config's provider is kind "${String(provider.kind)}", and llm-task speaks the OpenAI Chat Completions format`
        : 'no provider is configured';
    const missing = [baseURL === undefined ? 'baseURL' : undefined, model === undefined ? 'model' : undefined].filter((key) => key !== undefined);
    throw new ToolSearchError(ErrorCode.OPTIONS_INVALID, `${LLM_TASK_PLUGIN_NAME}: ${why}; set its own ${missing.join(' and ')} under plugins["${LLM_TASK_PLUGIN_NAME}"]`, {
      plugin: LLM_TASK_PLUGIN_NAME,
      details: { missing },
    });
  }
  const ownKey = options.apiKey !== undefined || options.apiKeyEnv !== undefined;
  const apiKey = ownKey
    ? (options.apiKey ?? env[options.apiKeyEnv!] ?? '')
    : (fromProvider?.apiKey ?? (fromProvider?.apiKeyEnv !== undefined ? env[fromProvider.apiKeyEnv] : undefined) ?? env.OPENAI_API_KEY ?? '');
  return { ...options, baseURL, model, apiKey };
}

function llmTask(client: OpenAI, options: Resolved): ToolDefinition {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const allowed = new Set([options.model, ...(options.allowedModels ?? [])]);
  return {
    name: 'llm-task',
    source: 'plugin',
    owner: 'llm-task',
    description:
      'Run one JSON-only LLM step: give a prompt, an input and optionally a JSON Schema; the configured model answers with JSON, validated against the schema (retried once if invalid). For classification, extraction and structured summaries inside a workflow.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 100_000, description: 'What to do with the input.' },
        input: { description: 'The data to work on (any JSON value).' },
        schema: { type: 'object', description: 'A JSON Schema the answer must satisfy.' },
        model: { type: 'string', minLength: 1, description: `A model from the allowed list (default ${options.model}).` },
        temperature: { type: 'number', minimum: 0, maximum: 2 },
        maxTokens: { type: 'integer', minimum: 1, maximum: 200_000 },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const model = typeof args.model === 'string' ? args.model : options.model;
      if (!allowed.has(model)) throw new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, `model ${model} is not allowed here; allowed: ${[...allowed].join(', ')}`, { details: { model } });
      let validate: ValidateFunction | undefined;
      if (args.schema !== undefined) {
        try {
          validate = ajv.compile(args.schema as object);
        } catch (error) {
          throw new ToolSearchError(LlmTaskErrors.LLM_TASK_SCHEMA_INVALID, `the schema does not compile: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
      }
      const user = [`Task: ${String(args.prompt)}`, `Input (JSON): ${JSON.stringify(args.input ?? null)}`, ...(args.schema !== undefined ? [`JSON Schema of the answer: ${JSON.stringify(args.schema)}`] : [])].join('\n\n');
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ];
      const reasons: string[] = [];
      for (let attempt = 1; attempt <= 2; attempt++) {
        const text = await ask(client, model, messages, args, options, ctx.signal);
        const checked = check(text, validate);
        if (checked.ok) return { content: [{ type: 'text', text: JSON.stringify(checked.value) }], structuredContent: { json: checked.value, model, attempts: attempt } };
        reasons.push(checked.reason);
        messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That was not valid: ${checked.reason}. Reply again with the JSON value only.` });
      }
      throw new ToolSearchError(LlmTaskErrors.LLM_TASK_INVALID_OUTPUT, `the model gave no valid JSON in 2 attempts: ${reasons.join('; ')}`, { details: { reasons, model } });
    },
  };
}

async function ask(
  client: OpenAI,
  model: string,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  args: Record<string, unknown>,
  options: Resolved,
  signal: AbortSignal,
): Promise<string> {
  try {
    const completion = await client.chat.completions.create(
      {
        model,
        messages,
        max_tokens: typeof args.maxTokens === 'number' ? args.maxTokens : (options.maxTokens ?? 2048),
        ...(typeof args.temperature === 'number' ? { temperature: args.temperature } : {}),
      },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  } catch (error) {
    throw new ToolSearchError(LlmTaskErrors.LLM_TASK_PROVIDER_FAILED, `the provider did not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The answer as JSON (a Markdown code fence around it is tolerated), checked against the schema. */
function check(text: string, validate: ValidateFunction | undefined): { ok: true; value: unknown } | { ok: false; reason: string } {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  let value: unknown;
  try {
    value = JSON.parse(fenced ? fenced[1]! : text);
  } catch (error) {
    return { ok: false, reason: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (validate && !validate(value)) return { ok: false, reason: `breaks the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join(', ')}` };
  return { ok: true, value };
}
