/** The codes `@tool-search/plugin-fs` raises (`FILE_NOT_FOUND` and `PATH_OUTSIDE_WORKSPACE` are `@tool-search/workspace`'s). */
import { defineErrors } from '@tool-search/kernel/errors';

export const FsErrors = defineErrors('@tool-search/plugin-fs', {
  FS_FILE_TOO_LARGE:
    'The file is larger than the tool loads whole (edit, apply_patch); `details.size` and `details.max` say by how much.',
  EDIT_NO_MATCH: '`edit`: `oldText` does not occur in the file.',
  EDIT_NOT_UNIQUE: '`edit`: `oldText` occurs more than once; add surrounding lines to make it unique.',
  PATCH_INVALID:
    '`apply_patch`: the input is not a `*** Begin Patch` … `*** End Patch` envelope; `details.line` names the line.',
  PATCH_CONFLICT:
    '`apply_patch`: a hunk does not apply (context not found, file exists or is missing); nothing was changed.',
  PATCH_ROLLBACK_FAILED:
    '`apply_patch`: a write failed midway and some files already written could not be restored; `details.unrestored` lists them (the write failure is the `cause`).',
});
