/**
 * Options shared by commands, and the steps they share: load the config,
 * build the kernel, open one run, always close.
 */
import type { Command } from 'commander';
import { loadConfig, resolveConfig, type ResolvedConfig, type ToolSearchConfig } from '@tool-search/config';
import type { Run, RunRequest } from '@tool-search/kernel';
import type { CliIO } from './io.js';
import { createToolSearchKernel } from './preset.js';

export interface ConfigFlags {
  readonly config?: string;
}

export interface RunFlags extends ConfigFlags {
  readonly agent?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly sandboxed?: boolean;
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
    .option('--sandboxed', 'the run is sandboxed (tools.sandbox.tools applies)');
}

export function withJsonOption(command: Command): Command {
  return command.option('--json', 'print JSON');
}

export interface LoadedCliConfig {
  readonly config: ToolSearchConfig;
  readonly resolved: ResolvedConfig;
  readonly path?: string;
}

export async function loadCliConfig(flags: ConfigFlags, io: CliIO): Promise<LoadedCliConfig> {
  const loaded = await loadConfig({ cwd: io.cwd, ...(flags.config !== undefined ? { path: flags.config } : {}) });
  return { config: loaded.config, resolved: resolveConfig(loaded.config), ...(loaded.path ? { path: loaded.path } : {}) };
}

export function runRequest(flags: RunFlags): RunRequest {
  return {
    ...(flags.agent !== undefined ? { agentId: flags.agent } : {}),
    ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.sandboxed ? { sandboxed: true } : {}),
  };
}

/** Loads the config, opens one run for the flags, hands it to `use`, and closes everything. */
export async function withRun<T>(flags: RunFlags, io: CliIO, use: (run: Run) => Promise<T> | T): Promise<T> {
  const { config } = await loadCliConfig(flags, io);
  const { kernel } = await createToolSearchKernel(config);
  try {
    const run = await kernel.createRun(runRequest(flags));
    return await use(run);
  } finally {
    await kernel.close();
  }
}
