/** The error codes `@tool-search/plugin-snapshot` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const SnapshotErrors = defineErrors('@tool-search/plugin-snapshot', {
  SNAPSHOT_INVALID:
    'A catalog snapshot file cannot be read or is not a snapshot (`tools: [...]` of named tools); `details` has the file and the entry.',
});
