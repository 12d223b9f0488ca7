/** The error codes `@tool-search/workspace` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const WorkspaceErrors = defineErrors('@tool-search/workspace', {
  PATH_OUTSIDE_WORKSPACE:
    "A core file tool's path leads outside the workspace (`..`, an absolute path, or a symlink out); `details.rule` says which.",
  FILE_NOT_FOUND: 'A core file tool found no file (or a folder) at the path.',
});
