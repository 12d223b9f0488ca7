export { alwaysVisiblePlugin, isPinned, unmatchedPins, PINS_PLUGIN, type AlwaysVisibleOptions } from './pins.js';
export { PresetErrors } from './errors.js';
export { createToolSearchKernel, DEMO_CATALOG_NOTICE, KNOWN_PLUGINS, usesDemoCatalog } from './preset.js';
export type { Preset, PresetOptions } from './preset.js';
export { BUILTIN_PLUGINS, DEFAULT_FAKE_CATALOG } from './builtins.js';
export type { BuiltinPlugin } from './builtins.js';
export type { LoadedPluginModule, PluginModule } from './load-plugin.js';
export { openToolSearchRun } from './open-run.js';
export type { OpenRunOptions, RunSearchOptions, RunSurface, RunTool, ToolSearchRun } from './open-run.js';
export { UNAVAILABLE_CORE_TOOLS } from './core-tools.js';
export { deploymentErrorCodes } from './error-codes.js';
// The codes a front end handles from the plugins the preset composes, so front ends import the preset, not plugins.
export { CodeErrors } from '@tool-search/mode-code';
export { ExecErrors } from '@tool-search/plugin-exec';
