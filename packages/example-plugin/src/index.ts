// A plugin module as a config loads it: `plugins: { "<package or ./path>": options }` imports this file and calls
// `plugin(options)` (a default export works too; the repo's style is named exports only).
export { unitsPlugin, unitsPlugin as plugin, optionsSchema } from './plugin.js';
export type { UnitsPluginOptions } from './plugin.js';
