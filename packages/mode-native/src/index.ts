// The public surface of @tool-search/mode-native: named exports only.
export { nativeModePlugin, NATIVE_MODE_PLUGIN, NATIVE_MODE_SYSTEM } from './plugin.js';
export type { NativeModeOptions } from './plugin.js';
