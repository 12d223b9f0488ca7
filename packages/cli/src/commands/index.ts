/**
 * Every command group of the CLI. Adding a command: one file in this folder
 * exporting `registerXCommands(program, io)`, plus one line below.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { registerConfigCommands } from './config.js';
import { registerToolsCommands } from './tools.js';

export type CommandRegistration = (program: Command, io: CliIO) => void;

export const COMMANDS: readonly CommandRegistration[] = [
  registerToolsCommands,
  registerConfigCommands,
];
