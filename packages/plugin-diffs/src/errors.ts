/** The codes `@tool-search/plugin-diffs` raises. */
import { defineErrors } from '@tool-search/kernel/errors';

export const DiffsErrors = defineErrors('@tool-search/plugin-diffs', {
  DIFFS_INPUT_INVALID: 'diffs needs before and after text, or a unified patch, within the size limit.',
  DIFFS_RENDER_FAILED: 'Chromium could not render the diff to a file.',
});
