/**
 * Every command of the CLI, loaded lazily: `runCli` imports only the files of the command argv names (so
 * `tool-search --help` and a mistyped command load no kernel, config or server code); the others appear in the
 * help from their `name` and `description` here.
 *
 * Adding a command: one file in this folder exporting `registerXCommands(program, io)`, plus one line below.
 * Subcommands of an existing group (`tools export`) are one more line with the group's `name` and the
 * `subcommands` its file registers (so `tools list` loads only the file of `list`); the file gets the group with
 * `commandGroup(program, 'tools', …)` from `../options.js`.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';

export type CommandRegistration = (program: Command, io: CliIO) => void;

export interface LazyCommand {
  /** The first word on the command line; several entries may share it (a group's subcommands from several files). */
  readonly name: string;
  /** One line for `tool-search --help` (the first entry of a name gives it). */
  readonly description: string;
  /**
   * For a group split over several files: the subcommands this entry's file registers. When argv names one of them,
   * only that file loads; otherwise (the group's help, a mistyped subcommand) every file of the group does.
   */
  readonly subcommands?: readonly string[];
  /** Imports the file that registers the command; called only when argv names it, or for the full program. */
  readonly load: () => Promise<CommandRegistration>;
}

const TOOLS = 'inspect, search and call the effective tool catalog';

export const COMMANDS: readonly LazyCommand[] = [
  {
    name: 'tools',
    description: TOOLS,
    subcommands: ['list', 'explain'],
    load: async () => (await import('./tools.js')).registerToolsCommands,
  },
  {
    name: 'tools',
    description: TOOLS,
    subcommands: ['search', 'describe', 'call'],
    load: async () => (await import('./tools-search.js')).registerToolSearchCommands,
  },
  {
    name: 'tools',
    description: TOOLS,
    subcommands: ['export'],
    load: async () => (await import('./export.js')).registerExportCommands,
  },
  {
    name: 'eval',
    description: 'measure search quality (Recall@1/5/10, MRR) on your catalog with labeled queries',
    load: async () => (await import('./eval.js')).registerEvalCommands,
  },
  {
    name: 'exposure',
    description: 'print what the model would see in a mode (tools + system text) and its size in bytes',
    load: async () => (await import('./exposure.js')).registerExposureCommand,
  },
  {
    name: 'code',
    description: 'run code as tool_search_code does',
    load: async () => (await import('./code.js')).registerCodeCommands,
  },
  {
    name: 'gateway',
    description: 'serve the gateway (POST /v1/chat/completions, /v1/responses, /v1/messages) until Ctrl-C',
    load: async () => (await import('./gateway.js')).registerGatewayCommand,
  },
  {
    name: 'serve',
    description: 'serve Tool Search to other programs',
    load: async () => (await import('./serve.js')).registerServeCommands,
  },
  {
    name: 'qa',
    description: 'quality checks against a scripted provider',
    load: async () => (await import('./qa.js')).registerQaCommands,
  },
  {
    name: 'config',
    description: 'validate, show, get and set tool-search.json',
    load: async () => (await import('./config.js')).registerConfigCommands,
  },
  {
    name: 'configure',
    description: 'set up a config section interactively (--section web: web_search provider and key)',
    load: async () => (await import('./configure.js')).registerConfigureCommand,
  },
  {
    name: 'mcp',
    description: 'log in to and out of remote MCP servers (OAuth)',
    load: async () => (await import('./mcp.js')).registerMcpCommands,
  },
  {
    name: 'inspect',
    description:
      'serve a local web page: catalog, search playground, policy explain, exposure per mode, sessions, MCP servers',
    load: async () => (await import('./inspect.js')).registerInspectCommand,
  },
  {
    name: 'errors',
    description: 'list the error codes this deployment can raise, or explain one (tool-search errors CODE)',
    load: async () => (await import('./errors.js')).registerErrorsCommand,
  },
  {
    name: 'auth',
    description: 'API keys for the gateway and serve mcp --http',
    load: async () => (await import('./auth.js')).registerAuthCommands,
  },
];
