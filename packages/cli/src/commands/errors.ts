/**
 * `tool-search errors [CODE]`: every error code this deployment can raise (the kernel's first, then by owning
 * package: the preset's plugins, the config's plugin modules and the CLI's front ends), or what one code means.
 */
import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { ErrorCodeInfo } from '@tool-search/kernel';
import { CliInputError, writeJson, type CliIO } from '../io.js';
import { loadCliConfig, withConfigOption, withJsonOption, type ConfigFlags, type JsonFlag } from '../options.js';

export function registerErrorsCommand(program: Command, io: CliIO): void {
  const command = program
    .command('errors [code]')
    .description('list the error codes this deployment can raise (kernel first, then by package), or explain one');
  withJsonOption(withConfigOption(command)).action(async (code: string | undefined, flags: ConfigFlags & JsonFlag) => {
    const codes = await deploymentCodes(flags, io);
    if (code === undefined) {
      if (flags.json) return writeJson(io, codes);
      return void io.stdout.write(listText(codes));
    }
    const found = codes.find((info) => info.code === code.trim().toUpperCase());
    if (!found) {
      const near = await closest(code, codes);
      throw new CliInputError(
        `unknown error code "${code}"${near.length ? `; did you mean ${near.join(', ')}?` : ''} (tool-search errors lists them)`,
      );
    }
    if (flags.json) return writeJson(io, found);
    io.stdout.write(`${found.code} (${found.owner})\n  ${found.description}\n`);
  });
}

async function deploymentCodes(flags: ConfigFlags, io: CliIO): Promise<ErrorCodeInfo[]> {
  const loaded = await loadCliConfig(flags, io);
  // The front ends this CLI serves (gateway, serve mcp, inspect, approvals, state) declare their codes when loaded.
  await Promise.all([
    import('../errors.js'),
    import('@tool-search/auth'),
    import('@tool-search/gateway'),
    import('@tool-search/inspect'),
    import('@tool-search/mcp-server'),
  ]);
  const { deploymentErrorCodes } = await import('@tool-search/preset');
  return deploymentErrorCodes(loaded.config, loaded.path ? dirname(loaded.path) : io.cwd);
}

function listText(codes: readonly ErrorCodeInfo[]): string {
  const lines: string[] = [];
  let owner: string | undefined;
  for (const info of codes) {
    if (info.owner !== owner) lines.push(`${owner === undefined ? '' : '\n'}${(owner = info.owner)}`);
    lines.push(`  ${info.code.padEnd(32)} ${info.description}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The codes nearest a mistyped one: by edit distance, or containing what was typed. */
async function closest(typed: string, codes: readonly ErrorCodeInfo[]): Promise<string[]> {
  const { editDistance } = await import('@tool-search/kernel');
  const wanted = typed.trim().toUpperCase();
  return codes
    .map((info) => ({
      code: info.code,
      distance: info.code.includes(wanted) && wanted.length >= 4 ? 0 : editDistance(wanted, info.code),
    }))
    .filter((entry) => entry.distance <= Math.max(2, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.distance - b.distance || a.code.localeCompare(b.code))
    .slice(0, 3)
    .map((entry) => entry.code);
}
