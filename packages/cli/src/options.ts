/**
 * Options shared by commands, and the steps they share: load the config,
 * build the kernel, open one run, always close.
 */
// Only types and small modules at the top: every command module imports this file, and `<command> --help` must not
// load the config package, the preset or the kernel. Each step imports what it needs when it runs.
import type { Command } from 'commander';
import type { ResolvedConfig, ToolSearchConfig } from '@tool-search/config';
import type { Diagnostic, Run, RunRequest } from '@tool-search/kernel';
import type { Preset, PresetOptions } from '@tool-search/preset';
import { promptApprover } from './approvals.js';
import { readClientTools } from './client-tools.js';
import { mcpClientOptions } from './mcp-client.js';
import { DEMO_REAL_TOOLS_HINT } from './demo-notice.js';
import { CliExit, type CliIO } from './io.js';

export interface ConfigFlags {
  readonly config?: string;
}

export interface RunFlags extends ConfigFlags {
  readonly agent?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly sandboxed?: boolean;
  /** A JSON file of client tools (`--client-tools`). */
  readonly clientTools?: string;
  /** Exit 1 when any tool source failed, not only when all did (`--strict`). */
  readonly strict?: boolean;
}

export interface JsonFlag {
  readonly json?: boolean;
}

export function withConfigOption(command: Command): Command {
  return command.option('-c, --config <file>', 'config file (default: ./tool-search.json if present)');
}

export function withRunOptions(command: Command): Command {
  return withConfigOption(command)
    .option('--agent <id>', 'agent id from agents.list[] (policy per agent)')
    .option('--provider <provider>', 'model provider (tools.byProvider)')
    .option('--model <model>', 'model id (tools.byProvider "provider/model")')
    .option('--sandboxed', 'the run is sandboxed (tools.sandbox.tools applies)')
    .option('--strict', 'exit 1 when any tool source failed (a partial catalog), not only when every one did');
}

/** A whole source that failed to list (an MCP server that did not start, a plugin whose listing threw), not one dropped tool. */
export function sourceFailures(run: Run): readonly Diagnostic[] {
  return run.diagnostics.filter((d) => d.level === 'error' && d.toolId === undefined);
}

/**
 * For commands whose job is the catalog (list, search, exposure, eval): every source failing is a failed command
 * (exit 1), and so is any failing with `--strict`; otherwise a partial catalog is a warning on stderr.
 */
export function requireSources(run: Run, flags: RunFlags, io: CliIO): void {
  const failed = sourceFailures(run);
  if (failed.length === 0) return;
  const which = failed
    .map(
      (d) =>
        `${d.code}${d.plugin ? ` [${d.plugin}]` : ''}${typeof d.details?.server === 'string' ? ` (server ${d.details.server})` : ''}`,
    )
    .join(', ');
  if (run.catalog.length === 0) {
    io.stderr.write(
      `error: no tools: every tool source that ran failed (${which}); see the messages above or run tools list\n`,
    );
    throw new CliExit(1);
  }
  if (flags.strict) {
    io.stderr.write(
      `error: --strict: ${failed.length} tool source${failed.length === 1 ? '' : 's'} failed (${which}); the catalog is partial\n`,
    );
    throw new CliExit(1);
  }
  io.stderr.write(
    `warning: ${failed.length} tool source${failed.length === 1 ? '' : 's'} failed (${which}); the catalog is partial (--strict makes this exit 1)\n`,
  );
}

export function withClientToolsOption(command: Command): Command {
  return command.option(
    '--client-tools <file>',
    'JSON array of client tools (OpenAI function tools or { name, description, parameters })',
  );
}

export function withJsonOption(command: Command): Command {
  return command.option('--json', 'print JSON');
}

/** The command `name` under `program`, created on first use: lets several files add subcommands to one group (`tools`). */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((command) => command.name() === name) ?? program.command(name).description(description);
}

export interface LoadedCliConfig {
  readonly config: ToolSearchConfig;
  readonly resolved: ResolvedConfig;
  readonly path?: string;
}

/** The folder each loaded config's plugin modules resolve from (its file's folder), so every command gets it without passing it along. */
const configFolders = new WeakMap<ToolSearchConfig, string>();

export async function loadCliConfig(flags: ConfigFlags, io: CliIO): Promise<LoadedCliConfig> {
  const { loadConfig, resolveConfig } = await import('@tool-search/config');
  const loaded = await loadConfig({ cwd: io.cwd, ...(flags.config !== undefined ? { path: flags.config } : {}) });
  configFolders.set(loaded.config, loaded.dir);
  return {
    config: loaded.config,
    resolved: resolveConfig(loaded.config),
    ...(loaded.path ? { path: loaded.path } : {}),
  };
}

/** Marks a config built in code as read from `dir`: its plugin modules resolve from there. Returns the config. */
export function rememberConfigFolder(config: ToolSearchConfig, dir: string): ToolSearchConfig {
  configFolders.set(config, dir);
  return config;
}

/** A copy of a loaded config with some top-level sections replaced; its plugin modules still resolve from its file's folder. */
export function withConfigSections(config: ToolSearchConfig, sections: Partial<ToolSearchConfig>): ToolSearchConfig {
  const copy = { ...config, ...sections };
  const folder = configFolders.get(config);
  if (folder !== undefined) configFolders.set(copy, folder);
  return copy;
}

/**
 * The preset for this CLI invocation: prompt approvals on a TTY, plus the embedder's `io.plugins`. Plugin modules
 * load only from the operator's config file (`plugins`), resolved from its folder.
 */
export async function createCliKernel(
  config: ToolSearchConfig,
  io: CliIO,
  options: PresetOptions = {},
): Promise<Preset> {
  // `null` (no approver, on purpose) is kept; only an absent approver falls back to the terminal prompt.
  const approve = options.approve !== undefined ? options.approve : promptApprover(io);
  const { mcpServersOf } = await import('@tool-search/config');
  const mcpClient =
    Object.keys(mcpServersOf(config)).length > 0 ? await mcpClientOptions(config, io, approve ?? undefined) : undefined;
  const { createToolSearchKernel, DEMO_CATALOG_NOTICE } = await import('@tool-search/preset');
  const preset = await createToolSearchKernel(config, {
    baseDir: configFolders.get(config) ?? io.cwd,
    ...(mcpClient ? { mcpClient } : {}),
    ...options,
    ...(approve ? { approve } : {}),
    plugins: [...(options.plugins ?? []), ...(io.plugins ?? [])],
  });
  // Once per command (some build several kernels), on stderr so JSON on stdout stays clean.
  if (preset.demoCatalog && !noticed.has(io)) {
    noticed.add(io);
    io.stderr.write(`${DEMO_CATALOG_NOTICE}\n${DEMO_REAL_TOOLS_HINT}\n`);
  }
  return preset;
}

const noticed = new WeakSet<CliIO>();

export async function runRequest(flags: RunFlags, io: CliIO): Promise<RunRequest> {
  const clientTools = flags.clientTools !== undefined ? await readClientTools(flags.clientTools, io.cwd) : undefined;
  return {
    ...(flags.agent !== undefined ? { agentId: flags.agent } : {}),
    ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.sandboxed ? { sandboxed: true } : {}),
    ...(clientTools ? { clientTools } : {}),
  };
}

export interface RunScope {
  readonly run: Run;
  readonly preset: Preset;
  readonly loaded: LoadedCliConfig;
}

/** Loads the config, opens one run for the flags, hands it to `use`, and closes everything. */
export async function withRun<T>(
  flags: RunFlags,
  io: CliIO,
  use: (run: Run, scope: RunScope) => Promise<T> | T,
): Promise<T> {
  const loaded = await loadCliConfig(flags, io);
  const asked = await runRequest(flags, io);
  // The agent's or provider's toolSearch limits apply to this run (the modes read `searchLimits`).
  // …and the sandbox the config gives the agent (`agents.list[].sandbox.mode`): `--sandboxed` adds one, never removes it.
  const { appliedToolSearch, runSettingOf, sandboxFieldOf } = await import('@tool-search/preset');
  const setting = runSettingOf(appliedToolSearch(loaded.config, asked));
  const request = { ...asked, ...setting, ...sandboxFieldOf(loaded.config, asked) };
  const preset = await createCliKernel(loaded.config, io);
  try {
    const run = await preset.kernel.createRun(request);
    return await use(run, { run, preset, loaded });
  } finally {
    await preset.kernel.close();
  }
}
