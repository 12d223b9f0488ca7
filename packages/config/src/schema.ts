/**
 * The one JSON Schema of `tool-search.json` (draft-07, Ajv strict mode).
 *
 * `tools` and `agents` have the shape of OpenClaw's `openclaw.json`, so such a
 * section pastes in verbatim. Keys we act on are validated precisely; keys
 * OpenClaw documents but we ignore are accepted by name with a loose type
 * (their inner shape is OpenClaw's, and changes with its releases). Unknown
 * keys are errors wherever we own the shape (`additionalProperties: false`).
 */

import { approvalsConfigSchema } from '@tool-search/plugin-approvals/options';
import { embeddingsOptionsSchema } from '@tool-search/plugin-embeddings/options';
import { loopDetectionConfigSchema } from '@tool-search/plugin-loop-detection/options';
import {
  mcpPluginOptionsSchema,
  mcpServerConfigSchemaWith,
  SERVER_NAME_PATTERN,
} from '@tool-search/plugin-mcp/options';
import { optionsSchema as directOptionsSchema } from '@tool-search/mode-direct/options';
import { optionsSchema as directoryOptionsSchema } from '@tool-search/mode-directory/options';
import { mcpServersSchema } from './mcp-servers-schema.js';
import { withSecretFields } from './secret-fields.js';
import { TOOL_SEARCH_MODES } from './modes.js';
import { SANDBOX_MODES } from './sandbox-for.js';

/** OpenClaw `tools.*` keys we accept but do not act on. */
export const OPENCLAW_TOOLS_KEYS = [
  'toolsBySender',
  'web',
  'media',
  'links',
  'codeMode',
  'swarm',
  'message',
  'agentToAgent',
  'elevated',
  'exec',
  'fs',
  'subagents',
  'sessions_spawn',
  'experimental',
] as const;

/** OpenClaw `agents.list[].tools.*` keys we accept but do not act on. */
export const OPENCLAW_AGENT_TOOLS_KEYS = [
  'toolsBySender',
  'codeMode',
  'swarm',
  'elevated',
  'exec',
  'fs',
  'message',
] as const;

/** OpenClaw `agents.list[]` keys we accept but do not act on (we act on `id`, `default` and `tools`). */
export const OPENCLAW_AGENT_KEYS = [
  'name',
  'description',
  'workspace',
  'agentDir',
  'model',
  'utilityModel',
  'models',
  'modelPolicy',
  'thinkingDefault',
  'verboseDefault',
  'toolProgressDetail',
  'reasoningDefault',
  'fastModeDefault',
  'contextInjection',
  'bootstrapMaxChars',
  'bootstrapTotalMaxChars',
  'experimental',
  'skills',
  'memory',
  'memorySearch',
  'humanDelay',
  'typingMode',
  'typingIntervalSeconds',
  'tts',
  'skillsLimits',
  'contextLimits',
  'contextTokens',
  'heartbeat',
  'identity',
  'groupChat',
  'subagents',
  'embeddedAgent',
  'plugins',
  'sandbox',
  'params',
  'runtime',
] as const;

type Schema = Record<string, unknown>;

const stringList: Schema = { type: 'array', items: { type: 'string' } };
// Secrets are marked where they are defined (`writeOnly`): the gateway tool's config.get redacts by this mark.
const secretString: Schema = { type: 'string', writeOnly: true };
const secretMap: Schema = { type: 'object', additionalProperties: secretString };
/** Fields of the schemas other packages define (MCP servers, embeddings) that hold secrets. */
const SECRET_FIELDS = ['apiKey', 'clientSecret', 'token', 'password', 'env', 'headers', 'args'] as const;
const anything: Schema = {};
const looseKeys = (keys: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(keys.map((key) => [key, anything]));
const strictObject = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

const profile: Schema = { type: 'string', enum: ['minimal', 'coding', 'messaging', 'full'] };
const policyLists = { allow: stringList, alsoAllow: stringList, deny: stringList };
const providerPolicyFields = { profile, ...policyLists };
const sandbox = strictObject({ tools: strictObject(policyLists) });

/** `tools.loopDetection` (and per agent): plugin-loop-detection's own schema, so config and plugin cannot drift. */
const loopDetection = loopDetectionConfigSchema as Schema;

/** `tools.toolSearch.embeddings`: plugin-embeddings' own options schema (one copy; the plugin checks the same again). */
const embeddings: Schema = withSecretFields(embeddingsOptionsSchema, SECRET_FIELDS);

/** `tools.toolSearch.learning` (`@tool-search/plugin-learning` checks the same again; here so a bad config names its path). */
const learning: Schema = {
  anyOf: [
    { type: 'boolean' },
    strictObject({
      enabled: { type: 'boolean' },
      scope: { type: 'string', enum: ['agent', 'deployment'] },
      halfLifeDays: { type: 'number', exclusiveMinimum: 0, maximum: 3650 },
      maxEntries: { type: 'integer', minimum: 1, maximum: 100000 },
      minCalls: { type: 'number', minimum: 0, maximum: 1000 },
      weight: { type: 'number', minimum: 0, maximum: 10 },
    }),
  ],
};

// Numbers here accept any value on purpose: resolution clamps or falls back to the default.
const toolSearchObject = strictObject({
  enabled: { type: 'boolean' },
  mode: { type: 'string', enum: [...TOOL_SEARCH_MODES] },
  codeTimeoutMs: { type: 'number' },
  searchDefaultLimit: { type: 'number' },
  maxSearchLimit: { type: 'number' },
  visible: stringList,
  directoryBudgetChars: { type: 'number' },
  warmPool: { anyOf: [{ type: 'boolean' }, { type: 'number' }] },
  sandbox: { type: 'string', enum: ['process', 'quickjs'] },
  maxConcurrent: { type: 'number' },
  embeddings,
  // The operator's words about the catalog, appended to the search tool's description in every mode.
  description: { type: 'string', maxLength: 2000 },
}) as Schema & { properties: Record<string, Schema> };
const toolSearch: Schema = { anyOf: [{ type: 'boolean' }, toolSearchObject] };

/** `tools.approvals`: plugin-approvals' own schema (one copy). */
const approvals = approvalsConfigSchema as Schema;

// `toolSearch` under byProvider and agents overrides the mode and limits for that provider/model or agent.
const providerPolicy = strictObject({ ...providerPolicyFields, toolSearch });

const policyFields = {
  profile,
  ...policyLists,
  byProvider: { type: 'object', additionalProperties: providerPolicy },
  sandbox,
  loopDetection,
};

// `tools.exec` / `tools.elevated`: the keys the core exec tools act on are checked; OpenClaw's others (backgroundMs, notifyOnExit, …) pass.
const execKeys: Schema = {
  type: 'object',
  properties: {
    host: { type: 'string', enum: ['sandbox', 'gateway', 'node'] },
    security: { type: 'string', enum: ['deny', 'allowlist', 'full'] },
    ask: { type: 'string', enum: ['off', 'on-miss', 'always'] },
    allowlist: stringList,
    timeoutSec: { type: 'integer', minimum: 1, maximum: 86400 },
    yieldMs: { type: 'integer', minimum: 0, maximum: 3600000 },
    env: secretMap,
    applyPatch: { type: 'object', properties: { enabled: { type: 'boolean' }, workspaceOnly: { type: 'boolean' } } },
  },
};
const elevatedKeys: Schema = { type: 'object', properties: { enabled: { type: 'boolean' } } };
// `tools.sessions`: OpenClaw's block; `visibility` is acted on by the session tools (other keys pass through).
const sessionsKeys: Schema = {
  type: 'object',
  properties: { visibility: { type: 'string', enum: ['self', 'tree', 'all'] } },
};
// `tools.web` (plugin-web checks its keys): only its secrets are described here, so OpenClaw's other keys pass.
const answerProviderSecrets: Schema = { type: 'object', properties: { apiKey: secretString } };
const webKeys: Schema = {
  type: 'object',
  properties: {
    fetch: { type: 'object', properties: { firecrawl: { type: 'object', properties: { apiKey: secretString } } } },
    search: {
      type: 'object',
      properties: {
        apiKey: secretString,
        perplexity: answerProviderSecrets,
        gemini: answerProviderSecrets,
        grok: answerProviderSecrets,
        kimi: answerProviderSecrets,
      },
    },
  },
};
const coreToolsKeys = { exec: execKeys, elevated: elevatedKeys, sessions: sessionsKeys, web: webKeys };

/**
 * `tools.toolSearch.directory` / `.direct`: options of those modes, each rule taken from the mode's own options schema
 * (one copy; the mode checks the same again). A bad value is refused with its path, not clamped.
 */
const directoryMode = strictObject({
  turnTools: directoryOptionsSchema.properties.turnTools,
  budgetChars: directoryOptionsSchema.properties.budgetChars,
});
const directMode = strictObject({ budgetChars: directOptionsSchema.properties.budgetChars });

// Learning and the modes' own options are the deployment's (the preset builds each mode once), so only the
// top-level `tools.toolSearch` takes them; an agent's or provider's `toolSearch` refuses them.
const topToolSearch: Schema = {
  anyOf: [
    { type: 'boolean' },
    {
      ...toolSearchObject,
      properties: { ...toolSearchObject.properties, learning, directory: directoryMode, direct: directMode },
    },
  ],
};
const tools = strictObject({
  ...policyFields,
  toolSearch: topToolSearch,
  approvals,
  alwaysVisible: { type: 'array', items: { type: 'string', minLength: 1 } },
  ...looseKeys(OPENCLAW_TOOLS_KEYS),
  ...coreToolsKeys,
});
const agentTools = strictObject({
  ...policyFields,
  toolSearch,
  ...looseKeys(OPENCLAW_AGENT_TOOLS_KEYS),
  elevated: elevatedKeys,
});

// OpenClaw's sandbox block: `mode` decides which runs are sandboxed (sandbox-for.ts); its other keys pass.
const agentSandbox: Schema = { type: 'object', properties: { mode: { type: 'string', enum: [...SANDBOX_MODES] } } };

const agentEntry = strictObject(
  {
    id: { type: 'string', minLength: 1 },
    default: { type: 'boolean' },
    tools: agentTools,
    ...looseKeys(OPENCLAW_AGENT_KEYS),
    sandbox: agentSandbox,
    name: { type: 'string' },
    workspace: { type: 'string' },
    model: { anyOf: [{ type: 'string' }, { type: 'object' }] },
  },
  ['id'],
);

// `agents.defaults` is OpenClaw's (model, workspace, sandbox, compaction, …); `workspace` (the MCP root) and `sandbox.mode` are acted on.
const agents = strictObject({
  defaults: { type: 'object', properties: { sandbox: agentSandbox } },
  list: { type: 'array', items: agentEntry },
});

// `alwaysVisible`: pin this server's tools (true) or some of them (their MCP names) visible in every search mode; the preset acts on it.
const alwaysVisible: Schema = {
  anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 }],
};
// One server entry: plugin-mcp's own schema (its connection rules win), plus the key the preset acts on.
const mcpServer: Schema = withSecretFields(mcpServerConfigSchemaWith({ alwaysVisible }), SECRET_FIELDS);
/** An MCP server name becomes the tool owner (`mcp:<name>:<tool>`): plugin-mcp's SERVER_NAME_PATTERN. */
const mcpServerName = { pattern: SERVER_NAME_PATTERN };

const fakeCatalogOptions = strictObject({
  tools: { type: 'integer', minimum: 0, maximum: 100000 },
  core: { type: 'boolean' },
});
// The real core tools (`@tool-search/plugin-fs`, `@tool-search/plugin-exec`); `workspace` defaults to `workspace` in the config file's folder (workspace.ts).
const coreOptions = strictObject({ workspace: { type: 'string', minLength: 1 } });

const apiKey = strictObject(
  {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    hash: { type: 'string', pattern: '^sha256:[0-9a-fA-F]{64}$', writeOnly: true },
    env: { type: 'string', minLength: 1 },
    agents: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
  },
  ['agents'],
);

export const configSchema = {
  $id: 'https://tool-search.dev/schemas/tool-search.json',
  title: 'tool-search.json',
  type: 'object',
  properties: {
    $schema: { type: 'string' },
    tools,
    agents,
    // Options per plugin id; each plugin validates its own options, except the ones we ship.
    plugins: {
      type: 'object',
      properties: { 'fake-catalog': fakeCatalogOptions, core: coreOptions },
      // A plugin module's options may hold its keys: shown redacted as a whole.
      additionalProperties: { type: 'object', writeOnly: true },
    },
    mcp: strictObject({
      servers: { type: 'object', propertyNames: mcpServerName, additionalProperties: mcpServer },
      connectTimeoutMs: mcpPluginOptionsSchema.properties.connectTimeoutMs,
    }),
    mcpServers: { ...withSecretFields(mcpServersSchema, SECRET_FIELDS), propertyNames: mcpServerName },
    provider: strictObject(
      {
        kind: { type: 'string', enum: ['openai', 'anthropic'] },
        // OpenAI only: Chat Completions (default) or the Responses API (programmatic tool calling needs it).
        api: { type: 'string', enum: ['chat', 'responses'] },
        baseURL: { type: 'string', minLength: 1 },
        apiKey: secretString,
        apiKeyEnv: { type: 'string', minLength: 1 },
        model: { type: 'string', minLength: 1 },
        // Anthropic only: `false` sends no `cache_control` (the gateway's prompt-cache breakpoints; default on).
        promptCache: { type: 'boolean' },
      },
      ['baseURL', 'model'],
    ),
    gateway: strictObject({
      host: { type: 'string', minLength: 1 },
      port: { type: 'integer', minimum: 0, maximum: 65535 },
      auth: strictObject({ token: secretString }),
      sessions: strictObject({ dir: { type: 'string' } }),
      // Per provider/model deferred-loading support: @tool-search/gateway checks it (capabilitiesFromConfig).
      capabilities: { type: 'object' },
    }),
    // `agentToAgent.maxPingPongTurns`: OpenClaw's reply-back turns after sessions_send (0–5, default 5).
    session: strictObject({
      logDir: { type: 'string' },
      agentToAgent: strictObject({ maxPingPongTurns: { type: 'integer', minimum: 0, maximum: 5 } }),
    }),
    // OpenClaw's `commands` block: `restart: false` stops the gateway tool restarting the gateway (other keys pass through).
    commands: { type: 'object', properties: { restart: { type: 'boolean' } } },
    // API keys of the front ends (gateway, serve mcp --http): @tool-search/auth checks each entry again (exactly one of hash/env).
    auth: strictObject({ keys: { type: 'array', items: apiKey } }),
    // The browser tool (`@tool-search/plugin-browser` checks its own keys: enabled, defaultProfile, profiles…).
    browser: { type: 'object' },
    // OpenClaw's `cron` block: `@tool-search/plugin-cron` checks the keys it acts on (minIntervalMs, maxJobsPerAgent).
    cron: { type: 'object' },
    // Shared state across replicas; without `redis` it stays in the process.
    state: strictObject({
      redis: strictObject(
        {
          url: { type: 'string', pattern: '^rediss?://' },
          keyPrefix: { type: 'string', minLength: 1, maxLength: 64 },
          commandTimeoutMs: { type: 'integer', minimum: 10, maximum: 60000 },
        },
        ['url'],
      ),
      replicaId: { type: 'string', minLength: 1, maxLength: 128 },
    }),
    telemetry: strictObject({
      otlp: strictObject(
        {
          endpoint: { type: 'string', pattern: '^https?://' },
          headers: secretMap,
          exportIntervalMs: { type: 'integer', minimum: 100, maximum: 3600000 },
          serviceName: { type: 'string', minLength: 1 },
          timeoutMs: { type: 'integer', minimum: 100, maximum: 120000 },
        },
        ['endpoint'],
      ),
    }),
  },
  additionalProperties: false,
} as const;
