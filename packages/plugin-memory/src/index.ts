// The public surface of @tool-search/plugin-memory: named exports only.
export { memoryPlugin, MEMORY_PLUGIN_NAME, DEFAULT_MAX_RESULTS, MAX_GET_LINES } from './plugin.js';
export type { MemoryPluginOptions } from './plugin.js';
export { chunkMarkdown, MAX_CHUNK_LINES } from './chunks.js';
export type { MemoryChunk } from './chunks.js';
export { isMemoryPath, listMemoryFiles, MAX_MEMORY_FILES, MAX_MEMORY_FILE_BYTES } from './memory-files.js';
export { MemoryErrors } from './errors.js';
