/** The error codes `@tool-search/preset` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel';

export const PresetErrors = defineErrors('@tool-search/preset', {
  PIN_NOT_VISIBLE: 'An alwaysVisible pin matches no tool of the run: it is not listed, or policy denied it (a denied pin stays hidden).',
});
