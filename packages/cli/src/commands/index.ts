/**
 * Every command group of the CLI. Adding a command: one file in this folder
 * exporting `registerXCommands(program, io)`, plus one import and one line
 * below. Subcommands of an existing group (`tools export`) get the group
 * with `commandGroup(program, 'tools', …)` from `../options.js`.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { registerAuthCommands } from './auth.js';
import { registerCodeCommands } from './code.js';
import { registerConfigCommands } from './config.js';
import { registerEvalCommands } from './eval.js';
import { registerExportCommands } from './export.js';
import { registerExposureCommand } from './exposure.js';
import { registerGatewayCommand } from './gateway.js';
import { registerInspectCommand } from './inspect.js';
import { registerMcpCommands } from './mcp.js';
import { registerQaCommands } from './qa.js';
import { registerServeCommands } from './serve.js';
import { registerToolSearchCommands } from './tools-search.js';
import { registerToolsCommands } from './tools.js';

export type CommandRegistration = (program: Command, io: CliIO) => void;

export const COMMANDS: readonly CommandRegistration[] = [
  registerToolsCommands,
  registerToolSearchCommands,
  registerExportCommands,
  registerEvalCommands,
  registerExposureCommand,
  registerCodeCommands,
  registerGatewayCommand,
  registerServeCommands,
  registerQaCommands,
  registerConfigCommands,
  registerMcpCommands,
  registerInspectCommand,
  registerAuthCommands,
];
