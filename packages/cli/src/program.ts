/**
 * The commander program and `runCli`, which runs it in-process and returns
 * the exit code: 0 ok, 1 bad input or a failed job (config, arguments, a failed
 * call, nothing served), 2 usage (unknown command, flag or choice). Nothing here
 * calls `process.exit`, so tests stay fast. Commands load lazily (see
 * `commands/index.ts`); the kernel loads only to report a coded error.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { COMMANDS, type LazyCommand } from './commands/index.js';
import { DEMO_REAL_TOOLS_HINT } from './demo-notice.js';
import { CliExit, CliInputError, CliUsageError, writeJson, type CliIO } from './io.js';
import { errorMessage } from '@tool-search/kernel/errors';

export const EXIT = Object.freeze({ OK: 0, INPUT: 1, USAGE: 2 });

/**
 * The built-in program (no plugin commands). With `argv`, only the commands it names are loaded (the others are
 * listed by name and description); without, every command is.
 */
export async function createProgram(io: CliIO, argv?: readonly string[]): Promise<Command> {
  const program = new Command('tool-search')
    .description('Tool Search: inspect, search and call catalogs; preview exposures; run code; serve the gateway')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  // A newcomer's first look (no ./tool-search.json yet): every command would use the demo catalog; say what that is.
  if (!hasConfigFile(io))
    program.addHelpText(
      'after',
      `\nNo ./tool-search.json here, so commands use the built-in demo catalog:\n${DEMO_REAL_TOOLS_HINT}.\n`,
    );
  const loaded = argv === undefined ? COMMANDS : commandsFor(argv);
  for (const register of await Promise.all(loaded.map((entry) => entry.load()))) register(program, io);
  const listed = new Set(program.commands.map((command) => command.name()));
  for (const entry of COMMANDS) {
    if (listed.has(entry.name)) continue;
    listed.add(entry.name);
    // Listed for help and for "did you mean"; never run (argv did not name it).
    program.command(entry.name).description(entry.description);
  }
  return program;
}

/** The command word of argv (`help tools` asks about `tools`). */
function commandWord(argv: readonly string[]): string | undefined {
  const first = argv[0];
  return first === 'help' ? argv[1] : first;
}

/**
 * The entries argv needs: those of its command word, narrowed to the file of its subcommand when the group is split
 * over files and argv names one (`tools list` loads neither the search index nor the snapshot format).
 */
export function commandsFor(argv: readonly string[]): readonly LazyCommand[] {
  const wanted = commandWord(argv);
  const group = COMMANDS.filter((entry) => entry.name === wanted);
  const sub = argv[0] === 'help' ? argv[2] : argv[1];
  const narrowed = group.filter((entry) => sub !== undefined && entry.subcommands?.includes(sub));
  return narrowed.length ? narrowed : group;
}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const program = await createProgram(io, argv);
    const builtIns = new Set(COMMANDS.map((entry) => entry.name));
    if (wantsPluginCommands(argv, builtIns) && hasConfigFile(io)) {
      const { discoverPluginCommands, registerPluginCommands } = await import('./plugin-commands.js');
      registerPluginCommands(program, await discoverPluginCommands(io), io);
    }
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.OK;
  } catch (error) {
    const code = await exitCodeFor(error, io);
    if (code !== EXIT.OK && wantsJson(argv) && !(error instanceof CliExit))
      writeJson(io, { error: await errorJson(error) });
    return code;
  }
}

/** Whether argv may name a plugin command (or asks for the top-level help, which lists them). */
export function wantsPluginCommands(argv: readonly string[], builtIns: ReadonlySet<string>): boolean {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help')
    return argv[1] === undefined || !builtIns.has(argv[1]);
  return !first.startsWith('-') && !builtIns.has(first);
}

/** Plugin commands come from `./tool-search.json` only: without one there are none to look for. */
function hasConfigFile(io: CliIO): boolean {
  return existsSync(join(io.cwd, 'tool-search.json'));
}

/** `--json` anywhere before `--`: the caller parses stdout, so a failure is JSON there too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** `{ code, message, ... }` of any failure; coded errors keep their fields (`path`/`rule` for config errors). */
export async function errorJson(error: unknown): Promise<{ code: string; message: string; [key: string]: unknown }> {
  const [{ ConfigError, ErrorCode, ToolSearchError }, { CliErrors }] = await Promise.all([
    import('@tool-search/kernel'),
    import('./errors.js'),
  ]);
  if (error instanceof ConfigError) return { ...error.toJSON(), path: error.path || '/', rule: error.rule };
  if (ToolSearchError.isInstance(error)) return error.toJSON();
  const message = errorMessage(error);
  if (error instanceof CommanderError || error instanceof CliUsageError)
    return { code: CliErrors.CLI_USAGE_INVALID, message };
  if (error instanceof CliInputError) return { code: CliErrors.CLI_INPUT_INVALID, message };
  return { code: ErrorCode.INTERNAL_ERROR, message };
}

async function exitCodeFor(error: unknown, io: CliIO): Promise<number> {
  if (error instanceof CliExit) return error.exitCode;
  if (error instanceof CommanderError) {
    // Commander already printed its message; help and version are successes.
    return error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
      ? EXIT.OK
      : EXIT.USAGE;
  }
  if (error instanceof CliUsageError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.USAGE;
  }
  if (error instanceof CliInputError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.INPUT;
  }
  const { ConfigError, ToolSearchError } = await import('@tool-search/kernel');
  if (error instanceof ConfigError) {
    io.stderr.write(`error ${error.code} at ${error.path || '/'} (rule ${error.rule}): ${error.message}\n`);
    return EXIT.INPUT;
  }
  if (ToolSearchError.isInstance(error)) {
    io.stderr.write(`error ${error.code}: ${error.message}\n`);
    return EXIT.INPUT;
  }
  io.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.INPUT;
}
