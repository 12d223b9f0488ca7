/**
 * The commander program and `runCli`, which runs it in-process and returns
 * the exit code: 0 ok, 1 bad input (config, arguments), 2 usage (unknown
 * command or flag). Nothing here calls `process.exit`, so tests stay fast.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError, ToolSearchError } from '@tool-search/kernel';
import { COMMANDS } from './commands/index.js';
import { CliInputError, type CliIO } from './io.js';

export const EXIT = Object.freeze({ OK: 0, INPUT: 1, USAGE: 2 });

export function createProgram(io: CliIO): Command {
  const program = new Command('tool-search')
    .description('Tool Search: inspect catalogs, policies and configs')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  for (const register of COMMANDS) register(program, io);
  return program;
}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    await createProgram(io).parseAsync([...argv], { from: 'user' });
    return EXIT.OK;
  } catch (error) {
    return exitCodeFor(error, io);
  }
}

function exitCodeFor(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) {
    // Commander already printed its message; help and version are successes.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.OK : EXIT.USAGE;
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
