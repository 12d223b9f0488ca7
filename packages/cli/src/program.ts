/**
 * The commander program and `runCli`, which runs it in-process and returns
 * the exit code: 0 ok, 1 bad input (config, arguments, a failed call), 2 usage
 * (unknown command, flag or choice). Nothing here calls `process.exit`, so
 * tests stay fast.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError, ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { COMMANDS } from './commands/index.js';
import { CliExit, CliInputError, CliUsageError, writeJson, type CliIO } from './io.js';
import { discoverPluginCommands, registerPluginCommands, wantsPluginCommands } from './plugin-commands.js';

export const EXIT = Object.freeze({ OK: 0, INPUT: 1, USAGE: 2 });

/** The built-in program (no plugin commands). */
export function createProgram(io: CliIO): Command {
  const program = new Command('tool-search')
    .description('Tool Search: inspect, search and call catalogs; preview exposures; run code; serve the gateway')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  for (const register of COMMANDS) register(program, io);
  return program;
}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const program = createProgram(io);
    const builtIns = new Set(program.commands.flatMap((command) => [command.name(), ...command.aliases()]));
    if (wantsPluginCommands(argv, builtIns)) registerPluginCommands(program, await discoverPluginCommands(io), io);
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.OK;
  } catch (error) {
    const code = exitCodeFor(error, io);
    if (code !== EXIT.OK && wantsJson(argv) && !(error instanceof CliExit)) writeJson(io, { error: errorJson(error) });
    return code;
  }
}

/** `--json` anywhere before `--`: the caller parses stdout, so a failure is JSON there too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** `{ code, message, ... }` of any failure; coded errors keep their fields (`path`/`rule` for config errors). */
export function errorJson(error: unknown): { code: string; message: string; [key: string]: unknown } {
  if (error instanceof ConfigError) return { ...error.toJSON(), path: error.path || '/', rule: error.rule };
  if (ToolSearchError.isInstance(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CommanderError || error instanceof CliUsageError) return { code: ErrorCode.CLI_USAGE_INVALID, message };
  if (error instanceof CliInputError) return { code: ErrorCode.CLI_INPUT_INVALID, message };
  return { code: ErrorCode.INTERNAL_ERROR, message };
}

function exitCodeFor(error: unknown, io: CliIO): number {
  if (error instanceof CliExit) return error.exitCode;
  if (error instanceof CommanderError) {
    // Commander already printed its message; help and version are successes.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.OK : EXIT.USAGE;
  }
  if (error instanceof CliUsageError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.USAGE;
  }
  if (error instanceof ConfigError) {
    io.stderr.write(`error ${error.code} at ${error.path || '/'} (rule ${error.rule}): ${error.message}\n`);
    return EXIT.INPUT;
  }
  if (ToolSearchError.isInstance(error)) {
    io.stderr.write(`error ${error.code}: ${error.message}\n`);
    return EXIT.INPUT;
  }
  if (error instanceof CliInputError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.INPUT;
  }
  io.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.INPUT;
}
