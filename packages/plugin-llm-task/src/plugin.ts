/**
 * `llmTaskPlugin`: OpenClaw's optional `llm-task` tool, a JSON-only LLM step. The tool sends a prompt and an input to
 * the provider configured for it (OpenAI Chat Completions or Anthropic Messages, official clients), asks for JSON only,
 * parses the answer and validates it against the caller's JSON Schema (Ajv); an answer that does not parse or fit is
 * retried once with the reason, and a second failure is `LLM_TASK_INVALID_OUTPUT`. A plugin module: configs load it
 * by name, `plugins: { "@tool-search/plugin-llm-task": {} }`; it exports `wants = ['provider']`, so the preset hands it
 * the config's `provider` and it answers through the deployment's model; its own `baseURL` / `model` / `apiKey` win.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Ajv, type ValidateFunction } from 'ajv';
import type OpenAI from 'openai';
import {
  ErrorCode,
  ToolSearchError,
  checkSchema,
  linearRegExp,
  type JsonSchema,
  type KernelPlugin,
  type ToolDefinition,
  errorMessage,
} from '@tool-search/kernel';
import { LlmTaskErrors } from './errors.js';

export const LLM_TASK_PLUGIN_NAME = '@tool-search/plugin-llm-task';

export interface LlmTaskPluginOptions {
  /** The wire format: `openai` (Chat Completions, default) or `anthropic` (Messages). Default: the host provider's `kind` when its base URL is used. */
  readonly kind?: 'openai' | 'anthropic';
  /** The provider's base URL (`https://api.openai.com/v1`, a gateway, a local server). Default: the host's `provider.baseURL`. */
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
    kind: { type: 'string', enum: ['openai', 'anthropic'] },
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

type Resolved = LlmTaskPluginOptions & {
  readonly kind: 'openai' | 'anthropic';
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey: string;
};

/** One JSON-only exchange with the provider: the conversation so far in, the answer's text out. */
type Ask = (
  model: string,
  messages: readonly Turn[],
  limits: { maxTokens: number; temperature?: number },
  signal: AbortSignal,
) => Promise<string>;
type Turn = { readonly role: 'user' | 'assistant'; readonly content: string };

const SYSTEM =
  'You are a JSON-only function. Reply with one JSON value and nothing else: no prose, no Markdown code fences. ' +
  'If a JSON Schema is given, the value must satisfy it.';

export function llmTaskPlugin(options: LlmTaskPluginOptions = {}, host: LlmTaskHost = {}): KernelPlugin {
  const resolved = resolve(options, host.provider, host.env ?? process.env);
  const tool = llmTask(asker(resolved), resolved);
  return {
    name: LLM_TASK_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add([tool]));
    },
  };
}

/**
 * The plugin's own options over the host's provider: without an own `baseURL`, the provider's kind, base URL, model
 * and key (`apiKey`, else `apiKeyEnv`) answer, each overridden by the options that name it.
 */
function resolve(
  options: LlmTaskPluginOptions,
  provider: LlmTaskProvider | undefined,
  env: NodeJS.ProcessEnv,
): Resolved {
  // The host's provider counts where the options do not name their own endpoint (an own baseURL brings its own kind).
  const fromProvider = options.baseURL === undefined ? provider : undefined;
  const kind = options.kind ?? fromProvider?.kind ?? 'openai';
  const baseURL = options.baseURL ?? fromProvider?.baseURL;
  const model = options.model ?? fromProvider?.model;
  if (baseURL === undefined || model === undefined) {
    const missing = [baseURL === undefined ? 'baseURL' : undefined, model === undefined ? 'model' : undefined].filter(
      (key) => key !== undefined,
    );
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `${LLM_TASK_PLUGIN_NAME}: no provider is configured; set the config's provider, or its own ${missing.join(' and ')} under plugins["${LLM_TASK_PLUGIN_NAME}"]`,
      {
        plugin: LLM_TASK_PLUGIN_NAME,
        details: { missing },
      },
    );
  }
  const ownKey = options.apiKey !== undefined || options.apiKeyEnv !== undefined;
  const defaultEnv = kind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  const apiKey = ownKey
    ? (options.apiKey ?? env[options.apiKeyEnv!] ?? '')
    : (fromProvider?.apiKey ??
      (fromProvider?.apiKeyEnv !== undefined ? env[fromProvider.apiKeyEnv] : undefined) ??
      env[defaultEnv] ??
      '');
  return { ...options, kind, baseURL, model, apiKey };
}

/** The provider's client behind one `Ask`: Chat Completions (`openai`) or Messages (`anthropic`), official clients. */
function asker(options: Resolved): Ask {
  const common = {
    baseURL: options.baseURL,
    apiKey: options.apiKey || 'unset',
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
  };
  // Each SDK is hundreds of files: the provider's own loads on the first call, not with the plugin.
  if (options.kind === 'anthropic') {
    let client: Promise<Anthropic> | undefined;
    return async (model, messages, limits, signal) => {
      client ??= import('@anthropic-ai/sdk').then(({ default: Client }) => new Client(common));
      const message = await (await client).messages.create(
        {
          model,
          system: SYSTEM,
          messages: [...messages],
          max_tokens: limits.maxTokens,
          ...(limits.temperature !== undefined ? { temperature: limits.temperature } : {}),
        },
        { signal },
      );
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    };
  }
  let client: Promise<OpenAI> | undefined;
  return async (model, messages, limits, signal) => {
    client ??= import('openai').then(({ default: Client }) => new Client(common));
    const completion = await (await client).chat.completions.create(
      {
        model,
        messages: [{ role: 'system', content: SYSTEM }, ...messages],
        max_tokens: limits.maxTokens,
        ...(limits.temperature !== undefined ? { temperature: limits.temperature } : {}),
      },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  };
}

function llmTask(ask: Ask, options: Resolved): ToolDefinition {
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
        model: {
          type: 'string',
          minLength: 1,
          description: `A model from the allowed list (default ${options.model}).`,
        },
        temperature: { type: 'number', minimum: 0, maximum: 2 },
        maxTokens: { type: 'integer', minimum: 1, maximum: 200_000 },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const model = typeof args.model === 'string' ? args.model : options.model;
      if (!allowed.has(model))
        throw new ToolSearchError(
          ErrorCode.TOOL_ARGUMENTS_INVALID,
          `model ${model} is not allowed here; allowed: ${[...allowed].join(', ')}`,
          { details: { model } },
        );
      const validate = args.schema === undefined ? undefined : compiled(args.schema as JsonSchema);
      const user = [
        `Task: ${String(args.prompt)}`,
        `Input (JSON): ${JSON.stringify(args.input ?? null)}`,
        ...(args.schema !== undefined ? [`JSON Schema of the answer: ${JSON.stringify(args.schema)}`] : []),
      ].join('\n\n');
      const messages: Turn[] = [{ role: 'user', content: user }];
      const reasons: string[] = [];
      for (let attempt = 1; attempt <= 2; attempt++) {
        const text = await asked(ask, model, messages, args, options, ctx.signal);
        const checked = check(text, validate);
        if (checked.ok)
          return {
            content: [{ type: 'text', text: JSON.stringify(checked.value) }],
            structuredContent: { json: checked.value, model, attempts: attempt },
          };
        reasons.push(checked.reason);
        messages.push(
          { role: 'assistant', content: text },
          { role: 'user', content: `That was not valid: ${checked.reason}. Reply again with the JSON value only.` },
        );
      }
      throw new ToolSearchError(
        LlmTaskErrors.LLM_TASK_INVALID_OUTPUT,
        `the model gave no valid JSON in 2 attempts: ${reasons.join('; ')}`,
        { details: { reasons, model } },
      );
    },
  };
}

/**
 * The caller's schema, compiled with every `pattern` (and `patternProperties` key) on the kernel's RE2 engine, which
 * runs in linear time: on a backtracking RegExp, `^(a+)+$` took seconds at 28 characters, doubling with each one
 * more. The schema comes from a client and the value it checks from a model: neither may stall the event loop.
 * The kernel's `checkSchema` bounds its size and depth and checks it against its meta-schema first. Each call
 * compiles on an Ajv of its own, dropped after it: Ajv keeps every schema it compiled, which would grow with every
 * call. Patterns RE2 cannot express (lookaround, backreferences) are not enforced, as in tool schemas.
 */
function compiled(schema: JsonSchema): ValidateFunction {
  const issue = checkSchema(schema);
  try {
    if (issue) throw new Error(`${issue.path ? `${issue.path}: ` : ''}${issue.message}`);
    // `$id` is stripped: it names nothing here, and Ajv would resolve references against it.
    const { $id: _ignored, ...rest } = schema;
    return new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { regExp: linearRegExp } }).compile(
      rest,
    );
  } catch (error) {
    throw new ToolSearchError(
      LlmTaskErrors.LLM_TASK_SCHEMA_INVALID,
      `the schema does not compile: ${errorMessage(error)}`,
      { cause: error, ...(issue ? { details: { path: issue.path, rule: issue.rule } } : {}) },
    );
  }
}

async function asked(
  ask: Ask,
  model: string,
  messages: readonly Turn[],
  args: Record<string, unknown>,
  options: Resolved,
  signal: AbortSignal,
): Promise<string> {
  try {
    const maxTokens = typeof args.maxTokens === 'number' ? args.maxTokens : (options.maxTokens ?? 2048);
    return await ask(
      model,
      messages,
      { maxTokens, ...(typeof args.temperature === 'number' ? { temperature: args.temperature } : {}) },
      signal,
    );
  } catch (error) {
    throw new ToolSearchError(
      LlmTaskErrors.LLM_TASK_PROVIDER_FAILED,
      `the provider did not answer: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

/** The answer as JSON (a Markdown code fence around it is tolerated), checked against the schema. */
function check(
  text: string,
  validate: ValidateFunction | undefined,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(unfenced(text));
  } catch (error) {
    return { ok: false, reason: `not JSON (${errorMessage(error)})` };
  }
  if (validate && !validate(value))
    return {
      ok: false,
      reason: `breaks the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join(', ')}`,
    };
  return { ok: true, value };
}

/**
 * The text inside a Markdown code fence around the whole answer (```` ```json … ``` ````), or the text as it is. Read
 * with string operations: the former pattern (`^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$`) backtracked on a model's
 * answer, 14 s for a fence and 5,000 spaces, growing with the cube of the length.
 */
export function unfenced(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return text;
  const body = trimmed.slice(3, -3);
  return (body.startsWith('json') ? body.slice(4) : body).trim();
}
