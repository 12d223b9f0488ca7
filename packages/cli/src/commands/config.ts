/** `tool-search config check|show|get|set`: validate the config, print it resolved, read or write one value. */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Command } from 'commander';
import type { ResolvedConfig, ToolSearchConfig } from '@tool-search/config';
import type { Diagnostic } from '@tool-search/kernel';
import { ConfigError, ErrorCode } from '@tool-search/kernel/errors';
import type { Preset } from '@tool-search/preset';
import { CliExit, CliInputError, writeJson, type CliIO } from '../io.js';
import {
  createCliKernel,
  loadCliConfig,
  withConfigOption,
  withJsonOption,
  type ConfigFlags,
  type JsonFlag,
} from '../options.js';
import { missingMcpCommands } from './mcp-commands.js';
import { modulesText } from './tools.js';

interface CheckFlags extends ConfigFlags, JsonFlag {
  readonly strict?: boolean;
}

export function registerConfigCommands(program: Command, io: CliIO): void {
  const config = program.command('config').description('validate, show, get and set tool-search.json');

  withJsonOption(
    withConfigOption(
      config
        .command('check')
        .description('validate the config (schema, plugin options) and print every policy warning'),
    ),
  )
    .option('--strict', 'exit 1 when there is any policy warning')
    .action(async (flags: CheckFlags) => {
      const loaded = await loadCliConfig(flags, io);
      const { warnings, notConfigured, unavailable, modules } = await policyWarnings(loaded.config, io);
      // A server whose command is not here would start no tools: that fails the check like an unavailable tool.
      unavailable.unshift(...(await missingMcpCommands(loaded.config, io.cwd)));
      // A configured tool that cannot run here (exec's sandbox without bubblewrap) fails the check, --strict or not.
      const ok = !unavailable.length && !(flags.strict && warnings.length);
      if (flags.json) writeJson(io, { ok, path: loaded.path ?? null, modules, warnings, notConfigured, unavailable });
      else {
        for (const warning of [...unavailable, ...warnings, ...notConfigured])
          io.stdout.write(
            `${warning.level} ${warning.code}${warning.agentId ? ` (agent ${warning.agentId})` : ''}: ${warning.message}\n`,
          );
        const counts = [
          unavailable.length ? `${unavailable.length} tool(s) or server(s) unavailable` : '',
          warnings.length ? `${warnings.length} policy warning(s)` : '',
        ].filter(Boolean);
        io.stdout.write(
          `${ok ? 'ok' : 'not ok'}: ${loaded.path ?? 'no config file; built-in defaults'}${counts.length ? ` (${counts.join(', ')})` : ''}\n${modulesText(modules)}`,
        );
      }
      if (!ok) throw new CliExit(1);
    });

  withJsonOption(
    withConfigOption(config.command('show').description('print the resolved config (secrets redacted)')),
  ).action(async (flags: ConfigFlags & JsonFlag) => {
    const loaded = await loadCliConfig(flags, io);
    const shown = redact(loaded.resolved);
    writeJson(io, flags.json ? { path: loaded.path ?? null, config: shown } : shown);
  });

  withConfigOption(
    config
      .command('get')
      .argument('<path>', 'config path, e.g. tools.toolSearch or agents.list[0].tools.allow')
      .description('print one value of the config (JSON)'),
  ).action(async (path: string, flags: ConfigFlags) => {
    const loaded = await loadCliConfig(flags, io);
    const { getConfigValue } = await import('@tool-search/config');
    const value = getConfigValue(loaded.config, path);
    if (value === undefined)
      throw new CliInputError(`${path} is not set in ${loaded.path ?? 'the config (no config file)'}`);
    io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  });

  withJsonOption(
    withConfigOption(
      config
        .command('set')
        .argument('<path>', 'config path, e.g. tools.toolSearch')
        .argument('<value>', 'JSON5 value (true, 8, \'{ mode: "tools" }\'); other text is a string')
        .description('set one value in tool-search.json; the result is validated before it is written'),
    ),
  ).action(async (path: string, text: string, flags: ConfigFlags & JsonFlag) => {
    const { CONFIG_FILE_NAME, getConfigValue, parseConfigValue, setConfigValue, setConfigValueInText, validateConfig } =
      await import('@tool-search/config');
    const file = resolve(io.cwd, flags.config ?? CONFIG_FILE_NAME);
    const { config: current, text: source } = await readConfigFile(file);
    const value = parseConfigValue(text);
    const next = setConfigValue(current, path, value);
    // Validate everything before anything is written: the schema, then every plugin's own option checks.
    validateConfig(next, file);
    const { kernel } = await createCliKernel(next, io);
    await kernel.close();
    // The file is edited in place (comments, quoting, indentation kept); the edit must mean exactly the validated config.
    const edited = setConfigValueInText(source, path, value);
    if (!isDeepStrictEqual(parseConfigValue(edited), next))
      throw new CliInputError(
        `${file}: could not edit ${path} in place without changing anything else; nothing was written`,
      );
    await writeFile(file, edited.endsWith('\n') ? edited : `${edited}\n`);
    const written = getConfigValue(next, path);
    if (flags.json) writeJson(io, { ok: true, path: file, key: path, value: written });
    else io.stdout.write(`${path} = ${JSON.stringify(written)} (${file})\n`);
  });
}

interface PolicyWarning extends Pick<Diagnostic, 'code' | 'level' | 'message' | 'details'> {
  readonly agentId?: string;
}

/**
 * The policy's diagnostics for a run without an agent and for each configured agent (each warning once), the
 * tools left out because they are not configured (web_search without a key): their message says what to set, and
 * the configured tools that cannot run here (exec's sandbox without bubblewrap).
 */
async function policyWarnings(
  config: ToolSearchConfig,
  io: CliIO,
): Promise<{
  warnings: PolicyWarning[];
  notConfigured: PolicyWarning[];
  unavailable: PolicyWarning[];
  modules: Preset['modules'];
}> {
  // Building the kernel loads the plugin modules and runs every plugin's own option checks (policy, sources).
  const { kernel, modules } = await createCliKernel(config, io);
  // Error diagnostics that mean a configured tool cannot run on this machine (not listed, fail closed).
  const { ExecErrors } = await import('@tool-search/preset');
  const unavailableCodes: ReadonlySet<string> = new Set([ExecErrors.EXEC_HOST_UNAVAILABLE]);
  const warnings: PolicyWarning[] = [];
  const notConfigured: PolicyWarning[] = [];
  const unavailable: PolicyWarning[] = [];
  const seen = new Set<string>();
  try {
    const agents = (config.agents?.list ?? []).map((agent) => agent.id);
    for (const agentId of [undefined, ...agents]) {
      const run = await kernel.createRun(agentId === undefined ? {} : { agentId });
      for (const { code, level, message, details, hook } of run.diagnostics) {
        const into =
          code === ErrorCode.TOOL_NOT_CONFIGURED
            ? notConfigured
            : level === 'error' && unavailableCodes.has(code)
              ? unavailable
              : hook === 'filterPolicy' && level !== 'info'
                ? warnings
                : undefined;
        if (!into || seen.has(message)) continue;
        seen.add(message);
        into.push({
          code,
          level,
          message,
          ...(details ? { details } : {}),
          ...(agentId !== undefined ? { agentId } : {}),
        });
      }
      await run.close();
    }
  } finally {
    await kernel.close();
  }
  return { warnings, notConfigured, unavailable, modules };
}

/** The config file as written (a missing file is an empty config: `config set` creates it). */
/** The file's config and its text (empty for a missing file). */
export async function readConfigFile(file: string): Promise<{ config: ToolSearchConfig; text: string }> {
  const { parseConfig, parseConfigValue } = await import('@tool-search/config');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: {}, text: '' };
    throw error;
  }
  try {
    return { config: parseConfig(text, file), text };
  } catch (error) {
    // A file that parses but breaks a rule can still be fixed by `config set`; the result is validated anyway.
    if (ConfigError.isInstance(error) && error.code === ErrorCode.CONFIG_INVALID)
      return { config: parseConfigValue(text) as ToolSearchConfig, text };
    throw error;
  }
}

/** Secrets never reach a terminal or a log: keys are kept, values replaced. */
function redact(config: ResolvedConfig): ResolvedConfig {
  const copy = structuredClone(config);
  if (copy.provider?.apiKey) copy.provider.apiKey = '***';
  if (copy.gateway?.auth?.token) copy.gateway.auth.token = '***';
  for (const server of [...Object.values(copy.mcp.servers), ...Object.values(copy.mcpServers ?? {})]) {
    for (const map of ['env', 'headers'] as const) {
      const values = (server as Partial<Record<typeof map, Record<string, string>>>)[map];
      if (values) for (const key of Object.keys(values)) values[key] = '***';
    }
    const auth = (server as { auth?: { clientSecret?: string } }).auth;
    if (auth?.clientSecret) auth.clientSecret = '***';
  }
  return copy;
}
