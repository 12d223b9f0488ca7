/** The error codes `@tool-search/plugin-memory` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const MemoryErrors = defineErrors('@tool-search/plugin-memory', {
  MEMORY_PATH_INVALID: '`memory_get`: the path is not a memory file (`MEMORY.md` or `memory/*.md`).',
});
