/** The error codes `@tool-search/cli` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const CliErrors = defineErrors('@tool-search/cli', {
  CLI_USAGE_INVALID: 'A command line the CLI cannot run (unknown command, flag or choice); exit code 2.',
  CLI_INPUT_INVALID: 'A CLI input the user can fix (a flag value, a file, a tool name); exit code 1.',
  MCP_COMMAND_NOT_FOUND:
    "`config check`: a stdio MCP server's command is not on PATH (or its path is missing or not executable); `details: { server, command }`; exit code 1.",
});
