// The public surface of @tool-search/cli: named exports only.
export { runCli, createProgram, EXIT } from './program.js';
export { COMMANDS } from './commands/index.js';
export type { CommandRegistration } from './commands/index.js';
export {
  commandGroup,
  withRun,
  withRunOptions,
  withConfigOption,
  withJsonOption,
  withClientToolsOption,
  loadCliConfig,
  createCliKernel,
} from './options.js';
export type { ConfigFlags, RunFlags, JsonFlag, RunScope, LoadedCliConfig } from './options.js';
export { exposureBytes } from './commands/exposure.js';
export type { ExposureBytes } from './commands/exposure.js';
export { approvalPrompt, promptApprover } from './approvals.js';
export { approvalsRoute } from '@tool-search/preset';
export { CliInputError, CliUsageError, CliExit } from './io.js';
export type { CliIO } from './io.js';
export { CliErrors } from './errors.js';
