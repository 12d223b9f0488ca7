/**
 * Commands contributed by plugins (`KernelPlugin.commands`): found by building
 * the kernel from the config, registered as `tool-search <cliName> <command>`.
 * Only done when argv asks for something that is not built in, or for help,
 * so built-in commands never pay for it.
 */
import type { Command } from 'commander';
import type { PluginCommands } from '@tool-search/kernel';
import { CliExit, type CliIO } from './io.js';
import { createCliKernel, loadCliConfig } from './options.js';
import { errorMessage } from '@tool-search/kernel';

/** The plugin command groups the config's kernel declares; a config that does not load is reported, not fatal. */
export async function discoverPluginCommands(io: CliIO): Promise<readonly PluginCommands[]> {
  try {
    const { config } = await loadCliConfig({}, io);
    // Listing commands is not running one: the demo-catalog notice waits for a command that uses the catalog.
    const { kernel } = await createCliKernel(config, { ...io, stderr: { write: () => true } });
    const commands = kernel.commands;
    await kernel.close();
    return commands;
  } catch (error) {
    io.stderr.write(`warning: plugin commands unavailable: ${errorMessage(error)}\n`);
    return [];
  }
}

export function registerPluginCommands(program: Command, groups: readonly PluginCommands[], io: CliIO): void {
  const taken = new Set(program.commands.map((command) => command.name()));
  for (const group of groups) {
    if (taken.has(group.cliName)) {
      io.stderr.write(`warning: plugin command "${group.cliName}" is already a command; skipped\n`);
      continue;
    }
    taken.add(group.cliName);
    const parent = program.command(group.cliName).description(`${group.description} (plugin)`);
    for (const entry of group.list) {
      parent
        .command(entry.name)
        .description(entry.description)
        .argument('[args...]', 'passed to the plugin command')
        .helpOption(false)
        .allowUnknownOption()
        .action(async (args: string[]) => {
          const code = await entry.run(args, {
            stdout: (text) => void io.stdout.write(text),
            stderr: (text) => void io.stderr.write(text),
          });
          if (code !== 0) throw new CliExit(code);
        });
    }
  }
}
