export { createToolSearchKernel, DEFAULT_FAKE_CATALOG, DEMO_CATALOG_NOTICE, KNOWN_PLUGINS, usesDemoCatalog } from './preset.js';
export type { Preset, PresetOptions } from './preset.js';
