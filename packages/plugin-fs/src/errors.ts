/** Codes @tool-search/plugin-fs raises beyond the kernel's own (FILE_NOT_FOUND, EDIT_*, PATCH_*, PATH_OUTSIDE_WORKSPACE). */
import { defineErrors } from '@tool-search/kernel';

export const FsErrors = defineErrors('@tool-search/plugin-fs', {
  FS_FILE_TOO_LARGE: 'The file is larger than the tool loads whole (edit, apply_patch); `details.size` and `details.max` say by how much.',
});
