/**
 * `gatewayPlugin`: OpenClaw's `gateway` tool for the gateway it runs in — restart it in-process (SIGUSR1, after
 * `delayMs` so the reply in flight finishes), look up one config path in the schema, read the config (secrets
 * redacted, with its hash), replace it (`config.apply`) or merge into it (`config.patch`). Every write is parsed,
 * schema-checked and checked by the gateway (each plugin's options) before it lands, edits the file in place so
 * comments stay, and then restarts the gateway. The gateway front end hands in a `GatewayControl`; this package
 * never imports the gateway. `update.run` is not offered: there is no update mechanism here.
 */
import { setCallApprovalRule, takeCallApproval, ApprovalRulesErrors } from '@tool-search/approval-rules';
import {
  configSchema,
  parseConfig,
  parseConfigValue,
  redactSecrets,
  setConfigValueInText,
  type ToolSearchConfig,
} from '@tool-search/config';
import {
  ErrorCode,
  ToolSearchError,
  type ExecuteContext,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { isDeepStrictEqual } from 'node:util';
import type {} from '@tool-search/tool-match'; // ToolMeta.explicitOnly
import { isObject, mergePatch, patchText, readConfigFile, writeConfigFile, type ConfigFile } from './config-file.js';
import { GatewayErrors } from './errors.js';
import {
  assertKeptSecretsStay,
  assertNoSecretToNewAddress,
  assertProtectedUnchanged,
  pathText,
  redactedToKeep,
  withoutPath,
} from './guard.js';
import { configFromEntries, hasPluginEntries, patchFromEntries } from './plugin-entries.js';
import { lookupSchema } from './schema-lookup.js';

export const GATEWAY_PLUGIN_NAME = '@tool-search/plugin-gateway';
export const GATEWAY_TOOL_ID = 'core:core:gateway';
/** OpenClaw's default: long enough for the reply that asked for the restart to reach its client. */
export const DEFAULT_RESTART_DELAY_MS = 2000;
export const MAX_RESTART_DELAY_MS = 300_000;
export const GATEWAY_ACTIONS = [
  'restart',
  'config.schema.lookup',
  'config.get',
  'config.apply',
  'config.patch',
] as const;
/** The actions that change the running gateway: each call needs an approval (closed without an approver). */
export const GATEWAY_MUTATING_ACTIONS: readonly string[] = Object.freeze(['restart', 'config.apply', 'config.patch']);

export interface RestartRequest {
  readonly delayMs: number;
  /** Why (the tool's `reason`, or the action that wrote the config). */
  readonly reason: string;
  /** A note for after the restart (the tool's `note`). */
  readonly note?: string;
  /** The session that asked: the restarted gateway wakes it with the result. */
  readonly sessionId?: string;
  /** The action that asked (`restart`, `config.apply`, `config.patch`), and for a write what it changed: told to the woken session. */
  readonly action?: string;
  readonly changedPaths?: readonly string[];
  readonly hash?: string;
}

/** What the gateway remembers of its last in-process restart (`config.get` shows it). */
export interface RestartRecord {
  readonly at: string;
  readonly reason: string;
  readonly note?: string;
  readonly sessionId?: string;
  /** How many in-process restarts this gateway has done. */
  readonly count: number;
}

/** What the gateway front end provides (the CLI's `tool-search gateway`). */
export interface GatewayControl {
  /** The config file this gateway loaded (created by the first write when it does not exist). */
  readonly configPath: string;
  /**
   * Every check the gateway makes when it starts short of listening, beyond the schema (API keys, listen rule,
   * upstream, relative paths, each plugin's own options); throws a `ConfigError`. It must never import or run a plugin
   * module: the tool calls it on configs an agent wrote.
   */
  check(config: ToolSearchConfig): Promise<void>;
  /**
   * Schedules the in-process restart: after `delayMs`, SIGUSR1 to this process; the gateway reloads its config and
   * serves again. It may defer the restart (restarts are bounded) or join one already scheduled: it says so.
   */
  restart(request: RestartRequest): RestartScheduled | undefined | void;
  /** The last in-process restart, if any. */
  lastRestart?(): RestartRecord | undefined;
}

/** When the restart asked for will happen, if the control deferred it or joined it to one already scheduled. */
export interface RestartScheduled {
  readonly delayMs: number;
  /** Joined a restart already scheduled (one restart reloads every write before it). */
  readonly coalesced?: boolean;
  /** Why later than asked (the restarts-per-minute bound, or the previous restart's drain). */
  readonly deferredBecause?: string;
}

export interface GatewayPluginOptions {
  readonly control: GatewayControl;
  /** `commands.restart`: false refuses the `restart` action (config writes still restart, as in OpenClaw). Default true. */
  readonly restart?: boolean;
}

export function gatewayPlugin(options: GatewayPluginOptions): KernelPlugin {
  const tool = gatewayTool(options);
  return {
    name: GATEWAY_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink, ctx) => {
        sink.add([tool]);
        // Every change to the running gateway is asked for: no approver (or a "no") means it does not happen.
        setCallApprovalRule(ctx.run, GATEWAY_TOOL_ID, (call) => {
          const action = (call.args as { action?: unknown }).action;
          return typeof action === 'string' && GATEWAY_MUTATING_ACTIONS.includes(action)
            ? `gateway ${action} changes the running gateway`
            : undefined;
        });
        sink.diagnostic({
          code: GatewayErrors.GATEWAY_ACTION_UNAVAILABLE,
          level: 'info',
          message:
            'gateway update.run is not offered: Tool Search has no self-update mechanism (update it with npm), so the gateway tool restarts and edits config only',
          toolId: GATEWAY_TOOL_ID,
          details: { action: 'update.run' },
        });
      });
    },
  };
}

interface GatewayArgs {
  action: (typeof GATEWAY_ACTIONS)[number];
  delayMs?: number;
  reason?: string;
  note?: string;
  path?: string;
  raw?: string;
  baseHash?: string;
}

function gatewayTool({ control, restart: restartEnabled = true }: GatewayPluginOptions): ToolDefinition {
  // One write at a time: two patches never read the same base.
  let writes: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = writes.then(work, work);
    writes = next.catch(() => undefined); // the caller gets the failure through `next`; the chain only orders the writes
    return next;
  };

  const scheduleRestart = (
    ctx: ExecuteContext,
    reason: string,
    args: GatewayArgs,
    written: { changedPaths?: readonly string[]; hash?: string } = {},
  ) => {
    const delayMs = args.delayMs ?? DEFAULT_RESTART_DELAY_MS;
    const sessionId = ctx.run.sessionId;
    const scheduled = control.restart({
      delayMs,
      reason,
      action: args.action,
      ...written,
      ...(args.note ? { note: args.note } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
    return { scheduled: true, delayMs, signal: 'SIGUSR1', ...(scheduled ?? {}) };
  };

  const write = (
    args: GatewayArgs,
    ctx: ExecuteContext,
    edit: (file: ConfigFile) => { text: string; value: unknown; changedPaths?: string[] },
  ) =>
    serial(async () => {
      const file = await readConfigFile(control.configPath);
      if (args.baseHash !== undefined && args.baseHash !== file.hash) {
        throw new ToolSearchError(
          GatewayErrors.GATEWAY_CONFIG_CHANGED,
          `the config file changed since ${args.baseHash}; it is now ${file.hash}: read it again with config.get`,
          {
            details: { baseHash: args.baseHash, hash: file.hash },
          },
        );
      }
      const { text, value, changedPaths } = edit(file);
      // What the tool may never write, and secrets that would follow a new address: refused before any check runs.
      assertProtectedUnchanged(file.value, value);
      assertKeptSecretsStay(file.value, value);
      // … nor a key from the gateway's environment (an object without its own) sent to an address the write chose.
      assertNoSecretToNewAddress(file.value, value);
      if (changedPaths?.length === 0)
        return json({
          ok: true,
          action: args.action,
          path: control.configPath,
          changedPaths,
          hash: file.hash,
          restart: { scheduled: false, why: 'nothing changed' },
        });
      // Parsed and schema-checked, then every check the gateway makes at start: a refused write leaves the file as it was.
      const config = parseConfig(text, `${args.action} for ${control.configPath}`);
      await control.check(config);
      await writeConfigFile(control.configPath, text);
      const written = await readConfigFile(control.configPath);
      const restart = scheduleRestart(ctx, args.reason ?? args.action, args, {
        ...(changedPaths ? { changedPaths } : {}),
        hash: written.hash,
      });
      return json({
        ok: true,
        action: args.action,
        path: control.configPath,
        ...(changedPaths ? { changedPaths } : {}),
        hash: written.hash,
        restart,
      });
    });

  return {
    name: 'gateway',
    source: 'core',
    owner: 'core',
    description:
      'Manage the running gateway: restart it in-process, look up one config path in the schema (config.schema.lookup, before editing), read the config with its hash (config.get), ' +
      'merge a partial change (config.patch: raw JSON5 object, null deletes) or replace it whole (config.apply: raw JSON5). Writes are validated first and restart the gateway after delayMs. ' +
      "restart, config.patch and config.apply each wait for an operator approval; policy, auth, gateway, exec, plugins, MCP, provider, state and telemetry settings are the operator's and refused here.",
    annotations: { destructiveHint: true, openWorldHint: false },
    // Offered only where an allow list names it (`gateway` in tools.alsoAllow, or an agent's): never by a profile or `*`.
    meta: { explicitOnly: true },
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: [...GATEWAY_ACTIONS] },
        delayMs: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_RESTART_DELAY_MS,
          description: `restart, config.apply, config.patch: wait this long before restarting (default ${DEFAULT_RESTART_DELAY_MS}, so the reply finishes).`,
        },
        reason: { type: 'string', maxLength: 500, description: 'Why the restart (logged and kept for after it).' },
        note: {
          type: 'string',
          maxLength: 2000,
          description: 'A note the restarted gateway keeps with the restart record.',
        },
        path: {
          type: 'string',
          minLength: 1,
          maxLength: 300,
          description:
            'config.schema.lookup: one config path (gateway.auth, tools.exec, agents.list.*.tools, plugins.entries.<id>.config); never the whole schema.',
        },
        raw: {
          type: 'string',
          minLength: 1,
          maxLength: 1_000_000,
          description:
            'config.apply: the whole config (JSON5); config.patch: a JSON5 object merged in (objects merge, null deletes, arrays replace). Secrets shown as "***" by config.get keep their value.',
        },
        baseHash: {
          type: 'string',
          pattern: '^sha256:[0-9a-f]{64}$',
          description:
            'config.apply, config.patch: the hash config.get returned; the write is refused if the file changed since.',
        },
      },
      required: ['action'],
      additionalProperties: false,
    },
    async execute(input, ctx): Promise<ToolResult> {
      const args = input as unknown as GatewayArgs;
      if (GATEWAY_MUTATING_ACTIONS.includes(args.action) && !takeCallApproval(ctx.run, ctx.callId))
        throw new ToolSearchError(
          ApprovalRulesErrors.APPROVAL_REQUIRED,
          `gateway ${args.action} needs an approval and none was given; register the approvals plugin with an approver`,
          { details: { action: args.action } },
        );
      switch (args.action) {
        case 'restart': {
          if (!restartEnabled)
            throw new ToolSearchError(
              GatewayErrors.GATEWAY_RESTART_DISABLED,
              'restart is disabled here: commands.restart is false in the config',
              { details: { key: 'commands.restart' } },
            );
          return json({ ok: true, action: 'restart', restart: scheduleRestart(ctx, args.reason ?? 'restart', args) });
        }
        case 'config.schema.lookup':
          if (args.path === undefined) throw missing('config.schema.lookup', 'path');
          return json({
            ok: true,
            action: args.action,
            ...lookupSchema(configSchema as unknown as Record<string, unknown>, args.path),
          });
        case 'config.get': {
          const file = await readConfigFile(control.configPath);
          const last = control.lastRestart?.();
          return json({
            ok: true,
            action: args.action,
            path: control.configPath,
            exists: file.exists,
            hash: file.hash,
            config: redactSecrets(file.value),
            ...(last ? { lastRestart: last } : {}),
          });
        }
        case 'config.apply': {
          const raw = args.raw;
          if (raw === undefined) throw missing('config.apply', 'raw');
          return write(args, ctx, (file) => {
            const parsed = shallowEnough(parseConfigValue(raw), 'config.apply');
            if (!isObject(parsed)) return { text: raw, value: parsed };
            // OpenClaw's plugins.entries, written in this config's shape (then checked like any write of plugins).
            let text = hasPluginEntries(parsed.plugins)
              ? setConfigValueInText(raw, 'plugins', configFromEntries(parsed.plugins))
              : raw;
            const next = text === raw ? parsed : parseConfigValue(text);
            for (const { path, value } of redactedToKeep(next, file.value))
              text = setConfigValueInText(text, pathText(path), value);
            return { text, value: parseConfigValue(text) };
          });
        }
        case 'config.patch': {
          const raw = args.raw;
          if (raw === undefined) throw missing('config.patch', 'raw');
          return write(args, ctx, (file) => {
            const patch = shallowEnough(parseConfigValue(raw), 'config.patch');
            if (!isObject(patch))
              throw new ToolSearchError(
                ErrorCode.TOOL_ARGUMENTS_INVALID,
                'config.patch: raw must be a JSON5 object, e.g. { tools: { toolSearch: { mode: "tools" } } }',
              );
            const shaped = withPluginsShaped(patch, file.value);
            // Secrets given back redacted are left out of the merge, so they keep their current value.
            const kept = redactedToKeep(shaped, file.value).reduce((left, { path }) => withoutPath(left, path), shaped);
            const edited = patchText(file.text, file.value, kept);
            // The in-place edit must mean exactly the merged config; otherwise nothing is written.
            const text = edited.text.trim() ? edited.text : '{}';
            const value = mergePatch(file.value, kept);
            if (!isDeepStrictEqual(parseConfigValue(text), value)) {
              throw new ToolSearchError(
                GatewayErrors.GATEWAY_CONFIG_UNWRITABLE,
                `config.patch could not edit ${control.configPath} in place without changing anything else; nothing was written`,
              );
            }
            return { text, value, changedPaths: edited.changedPaths };
          });
        }
        default:
          throw new ToolSearchError(
            ErrorCode.TOOL_ARGUMENTS_INVALID,
            `unknown gateway action ${JSON.stringify((args as { action: unknown }).action)}`,
          );
      }
    },
  };
}

/** `patch` with OpenClaw's `plugins.entries` in this config's shape; a `plugins` that changes nothing is left out. */
function withPluginsShaped(patch: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  if (!hasPluginEntries(patch.plugins)) return patch;
  const plugins = patchFromEntries(patch.plugins, current.plugins);
  const rest = Object.fromEntries(Object.entries(patch).filter(([key]) => key !== 'plugins'));
  return Object.keys(plugins).length ? { ...rest, plugins } : rest;
}

function missing(action: string, field: string): ToolSearchError {
  return new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, `${action} needs ${field}`, {
    details: { action, field },
  });
}

function json(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** Deeper than any config: the merge, the diff and the checks walk it recursively, so refuse it first. */
const MAX_RAW_DEPTH = 64;

/** `value` when it nests at most MAX_RAW_DEPTH levels (counted without recursion), else TOOL_ARGUMENTS_INVALID. */
function shallowEnough(value: unknown, action: string): unknown {
  let level: unknown[] = [value];
  for (let depth = 0; level.length; depth++) {
    if (depth > MAX_RAW_DEPTH)
      throw new ToolSearchError(
        ErrorCode.TOOL_ARGUMENTS_INVALID,
        `${action}: raw nests deeper than ${MAX_RAW_DEPTH} levels; no config does`,
        { details: { rule: 'maxDepth', maxDepth: MAX_RAW_DEPTH } },
      );
    level = level.flatMap((item) => (item !== null && typeof item === 'object' ? Object.values(item) : []));
  }
  return value;
}
