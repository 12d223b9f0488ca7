// The public surface of @tool-search/plugin-snapshot: named exports only.
export { snapshotPlugin } from './plugin.js';
export type { SnapshotPluginOptions } from './plugin.js';
export {
  PLUGIN_NAME,
  SNAPSHOT_FORMAT,
  parseSnapshot,
  readSnapshotFile,
  snapshotDescriptors,
  snapshotToolId,
  toSnapshot,
} from './format.js';
export type { CatalogSnapshot, SnapshotTool } from './format.js';
export { SnapshotErrors } from './errors.js';
