/**
 * Options of `mcpPlugin` and the JSON Schema that checks them. The config
 * package reuses `mcpServersSchema` for `mcp.servers` in tool-search.json, so
 * the type, the schema and the README table stay one thing.
 */
import type { McpClientHandlers } from './handlers.js';
import type { McpAuthorizer } from './oauth-session.js';
import type { McpTokenStore } from './token-store.js';
import {
  compileToolSchema,
  ConfigError,
  editDistance,
  ErrorCode,
  surelyValid,
  toSchemaIssues,
} from '@tool-search/kernel';

/**
 * The MCP protocol version spoken with a server: `auto` probes `server/discover` (2026-07-28) and falls back to
 * `initialize` (2025-11-25 and earlier); a version pins it (a 2026-07-28 pin fails loudly on a legacy server,
 * a 2025-11-25 pin never probes).
 */
export type McpProtocol = 'auto' | '2026-07-28' | '2025-11-25';

/** A server started as a child process, spoken to over stdin/stdout. */
export interface McpStdioServerConfig {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal inherited environment (HOME, PATH, …), as the MCP SDK does. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Request timeout for this server's tool calls; overrides `callTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Protocol version negotiation. Default `auto`. */
  readonly protocol?: McpProtocol;
}

/**
 * OAuth for an HTTP server (used when it answers 401). Nothing is needed for servers with dynamic client
 * registration; `clientId` (+ secret) for a pre-registered client; `clientMetadataUrl` for a client ID
 * metadata document; `grant: 'client_credentials'` for machine-to-machine servers (no login).
 */
export interface McpOAuthConfig {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Environment variable holding the client secret (preferred over `clientSecret`). */
  readonly clientSecretEnv?: string;
  /** HTTPS URL of this client's metadata document, used as `client_id` where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** Scopes to ask for when the server does not say (WWW-Authenticate, then its `scopes_supported`, come first). */
  readonly scope?: string;
  readonly grant?: 'authorization_code' | 'client_credentials';
  /** Fixed loopback redirect URL (`http://127.0.0.1:<port>/<path>`), for clients registered with one. */
  readonly redirectUrl?: string;
  /** `client_name` sent at registration. Default "Tool Search". */
  readonly clientName?: string;
  /** Issuer of the authorization server a configured client (`clientId`) was registered with: its secret goes only there. */
  readonly issuer?: string;
}

/** A server reached over Streamable HTTP, falling back to the older HTTP+SSE transport. */
export interface McpHttpServerConfig {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly auth?: McpOAuthConfig;
  /** Request timeout for this server's tool calls; overrides `callTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Protocol version negotiation. Default `auto`. */
  readonly protocol?: McpProtocol;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export interface McpPluginOptions {
  /** Servers by name; the name is the tool owner: `mcp:<name>:<tool>`. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** Budget for one server to start, initialize and list its tools. Default 8000 ms (keep it below the kernel's `sourceTimeoutMs`). */
  readonly connectTimeoutMs?: number;
  /** Request timeout of a tool call. Default 60000 ms. */
  readonly callTimeoutMs?: number;
  /**
   * How long the first start of a server launched by a package runner (`npx`, `npm exec`, `pnpm dlx`, `bunx`, `uvx`)
   * may take, downloading included. A listing waits `connectTimeoutMs` for it, then reports `MCP_SERVER_STARTING` and
   * the start goes on in the background. Default 120000 ms.
   */
  readonly firstStartTimeoutMs?: number;
  /** Tools kept per server; a longer listing is cut there with an `MCP_LIST_TRUNCATED` warning. Default 10000. */
  readonly maxToolsPerServer?: number;
  /** `tools/list` pages followed per listing; more is cut with an `MCP_LIST_TRUNCATED` warning. Default 100. */
  readonly maxListPages?: number;
  /** How long a stdio server's process group gets after stdin closes, and again after SIGTERM, before SIGKILL. Default 2000 ms. */
  readonly shutdownGraceMs?: number;
  /** Called when a server announces `notifications/tools/list_changed` (or its connection closes): the next run will list again. */
  readonly onToolsChanged?: (server: string) => void;
  /** Where OAuth tokens and registrations are kept. Default: in memory (the CLI and gateway pass `fileTokenStore()`). */
  readonly tokenStore?: McpTokenStore;
  /** The browser step of OAuth logins. Without one, a server that needs a login is an `MCP_AUTH_REQUIRED` diagnostic. */
  readonly authorizer?: McpAuthorizer;
  /** Answers to servers' `sampling/createMessage` and `elicitation/create`; without them these are declined with a message. */
  readonly handlers?: McpClientHandlers;
  /** Roots offered to every server (`roots/list`), e.g. the workspace as `file://` URL. */
  readonly roots?: readonly McpRoot[];
}

/** A root offered to servers: a `file://` URL and an optional display name. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 8_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_FIRST_START_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_TOOLS_PER_SERVER = 10_000;
export const DEFAULT_MAX_LIST_PAGES = 100;
export const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;

/** Server names become tool owners and id segments, so no `:` and no whitespace. */
export const SERVER_NAME_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$';

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const timeout = { type: 'integer', minimum: 1 } as const;
const protocol = { enum: ['auto', '2026-07-28', '2025-11-25'] } as const;

const stdioProperties = {
  command: { type: 'string', minLength: 1 },
  args: { type: 'array', items: { type: 'string' } },
  env: stringMap,
  cwd: { type: 'string', minLength: 1 },
  timeoutMs: timeout,
  protocol,
} as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
/** JSON Schema of `McpOAuthConfig` (`mcp.servers.<name>.auth`). */
export const mcpOAuthConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    clientId: nonEmpty,
    clientSecret: nonEmpty,
    clientSecretEnv: nonEmpty,
    clientMetadataUrl: { type: 'string', pattern: '^https://[^/]+/.+' },
    scope: nonEmpty,
    grant: { enum: ['authorization_code', 'client_credentials'] },
    redirectUrl: { type: 'string', pattern: '^http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?/' },
    clientName: nonEmpty,
    issuer: { type: 'string', pattern: '^https?://' },
  },
} as const;
const httpProperties = {
  url: { type: 'string', pattern: '^https?://' },
  headers: stringMap,
  auth: mcpOAuthConfigSchema,
  timeoutMs: timeout,
  protocol,
} as const;

/**
 * JSON Schema of one server entry with `extra` keys allowed in both kinds: `url` makes it HTTP, `command` stdio; with
 * neither, every key of both is known, so a typo (`comand`) is reported as unknown (with a suggestion) and `command`
 * is asked for. A host that adds its own keys to a server entry (the preset's `alwaysVisible` in tool-search.json)
 * builds its schema here, so the connection rules are written once. Compiles under Ajv's strict mode.
 */
export function mcpServerConfigSchemaWith<Extra extends Record<string, object>>(extra: Extra) {
  const http = { ...httpProperties, ...extra };
  const stdio = { ...stdioProperties, ...extra };
  return {
    type: 'object',
    if: { type: 'object', properties: { url: {} }, required: ['url'] },
    then: { type: 'object', required: ['url'], additionalProperties: false, properties: http },
    else: {
      if: { type: 'object', properties: { command: {} }, required: ['command'] },
      then: { type: 'object', required: ['command'], additionalProperties: false, properties: stdio },
      else: { type: 'object', required: ['command'], additionalProperties: false, properties: { ...stdio, ...http } },
    },
  } as const;
}

/** JSON Schema of one server entry (`mcp.servers.<name>`); see `mcpServerConfigSchemaWith`. */
export const mcpServerConfigSchema = mcpServerConfigSchemaWith({});

/** JSON Schema of the `servers` map (`mcp.servers`). */
export const mcpServersSchema = {
  type: 'object',
  propertyNames: { pattern: SERVER_NAME_PATTERN },
  additionalProperties: mcpServerConfigSchema,
} as const;

/** JSON Schema of `McpPluginOptions`. */
export const mcpPluginOptionsSchema = {
  type: 'object',
  required: ['servers'],
  additionalProperties: false,
  properties: {
    servers: mcpServersSchema,
    connectTimeoutMs: timeout,
    callTimeoutMs: timeout,
    firstStartTimeoutMs: timeout,
    maxToolsPerServer: { type: 'integer', minimum: 1 },
    maxListPages: { type: 'integer', minimum: 1 },
    shutdownGraceMs: { type: 'integer', minimum: 0 },
    roots: {
      type: 'array',
      items: {
        type: 'object',
        required: ['uri'],
        additionalProperties: false,
        properties: { uri: { type: 'string', pattern: '^file://' }, name: { type: 'string' } },
      },
    },
  },
} as const;

/** Checks options against the schema; throws a `ConfigError` (`OPTIONS_INVALID`) naming the path (a JSON pointer, as config errors) and rule. */
export function parseMcpOptions(options: unknown): McpPluginOptions {
  if (surelyValid(mcpPluginOptionsSchema, options)) return options as McpPluginOptions;
  const validate = compileToolSchema(mcpPluginOptionsSchema);
  if (typeof validate !== 'function')
    throw new Error(`plugin-mcp options schema does not compile: ${validate.message}`);
  if (validate(options)) return options as McpPluginOptions;
  // `if/then/else` and `propertyNames` repeat the specific error of their branch or key: keep that one.
  const errors = (validate.errors ?? []).filter((error) => error.keyword !== 'if' && error.keyword !== 'propertyNames');
  const issues = errors.map(describeIssue);
  const first = issues[0] ?? { path: '/', rule: 'schema', message: 'invalid options' };
  throw new ConfigError(
    first.path,
    first.rule,
    `@tool-search/plugin-mcp options are invalid at ${first.path}: ${first.message}`,
    {
      code: ErrorCode.OPTIONS_INVALID,
      plugin: '@tool-search/plugin-mcp',
      details: { issues },
    },
  );
}

const SERVER_KEYS = Object.keys({ ...stdioProperties, ...httpProperties });

type SchemaError = NonNullable<Extract<ReturnType<typeof compileToolSchema>, { errors?: unknown }>['errors']>[number];

function describeIssue(error: SchemaError): { path: string; rule: string; message: string } {
  const [issue] = toSchemaIssues([error]);
  if (error.propertyName !== undefined) {
    return {
      path: `${error.instancePath}/${error.propertyName}`,
      rule: 'propertyNames',
      message: `server name "${error.propertyName}" must match ${SERVER_NAME_PATTERN}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    const known = error.instancePath ? SERVER_KEYS : Object.keys(mcpPluginOptionsSchema.properties);
    const suggestion = known.find((candidate) => editDistance(key.toLowerCase(), candidate.toLowerCase()) <= 2);
    return {
      path: issue!.path,
      rule: 'additionalProperties',
      message: `unknown key "${key}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
    };
  }
  return issue!;
}

export function isHttpConfig(config: McpServerConfig): config is McpHttpServerConfig {
  return typeof (config as McpHttpServerConfig).url === 'string';
}

const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
const RUNNER_VERBS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['dlx', 'exec'],
  yarn: ['dlx'],
  bun: ['x'],
};

/** Whether a stdio server is launched by a package runner, which may download the server on its first start. */
export function isPackageRunner(config: McpServerConfig): boolean {
  if (isHttpConfig(config)) return false;
  const command = config.command
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(cmd|exe)$/i, '');
  if (RUNNERS.has(command)) return true;
  const verb = (config.args ?? []).find((arg) => !arg.startsWith('-'));
  return verb !== undefined && (RUNNER_VERBS[command] ?? []).includes(verb);
}

// The plugin's codes, for front ends that match on them without loading the MCP SDK.
export { McpErrors } from './errors.js';
