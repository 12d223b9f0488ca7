// The public surface of @tool-search/plugin-fs: named exports only.
export { fsPlugin, PLUGIN_NAME, APPLY_PATCH_PROVIDERS } from './plugin.js';
export type { FsPluginOptions } from './plugin.js';
export { EDIT_MAX_BYTES, READ_DEFAULT_LINES, READ_MAX_CHARS, READ_MAX_IMAGE_BYTES } from './files.js';
export { FsErrors } from './errors.js';
export { parsePatch } from './patch-parse.js';
export type { PatchChunk, PatchOp } from './patch-parse.js';
