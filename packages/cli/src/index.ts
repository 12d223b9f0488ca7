// The public surface of @tool-search/cli: named exports only.
export { runCli, createProgram, EXIT } from './program.js';
export { createToolSearchKernel, DEFAULT_FAKE_CATALOG, SOURCE_PLUGINS } from './preset.js';
export type { Preset, PresetOptions } from './preset.js';
export { COMMANDS } from './commands/index.js';
export type { CommandRegistration } from './commands/index.js';
export { CliInputError } from './io.js';
export type { CliIO } from './io.js';
