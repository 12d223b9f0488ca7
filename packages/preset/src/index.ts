export { createToolSearchKernel, DEFAULT_FAKE_CATALOG, KNOWN_PLUGINS } from './preset.js';
export type { Preset, PresetOptions } from './preset.js';
