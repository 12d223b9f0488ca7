/** `tool-search config check|show`: validate the config, print it resolved. */
import type { Command } from 'commander';
import type { ResolvedConfig } from '@tool-search/config';
import { writeJson, type CliIO } from '../io.js';
import { createCliKernel, loadCliConfig, withConfigOption, withJsonOption, type ConfigFlags, type JsonFlag } from '../options.js';
import { modulesText } from './tools.js';

export function registerConfigCommands(program: Command, io: CliIO): void {
  const config = program.command('config').description('validate and show tool-search.json');

  withJsonOption(withConfigOption(config.command('check').description('validate the config (schema and plugin options)'))).action(
    async (flags: ConfigFlags & JsonFlag) => {
      const loaded = await loadCliConfig(flags, io);
      // Building the kernel loads the plugin modules and runs every plugin's own option checks (policy, sources).
      const { kernel, modules } = await createCliKernel(loaded.config, io);
      await kernel.close();
      if (flags.json) writeJson(io, { ok: true, path: loaded.path ?? null, modules });
      else io.stdout.write(`ok: ${loaded.path ?? 'no config file; built-in defaults'}\n${modulesText(modules)}`);
    },
  );

  withJsonOption(withConfigOption(config.command('show').description('print the resolved config (secrets redacted)'))).action(
    async (flags: ConfigFlags & JsonFlag) => {
      const loaded = await loadCliConfig(flags, io);
      const shown = redact(loaded.resolved);
      writeJson(io, flags.json ? { path: loaded.path ?? null, config: shown } : shown);
    },
  );
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
  }
  return copy;
}
