/** The error codes `@tool-search/preset` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const PresetErrors = defineErrors('@tool-search/preset', {
  PIN_NOT_VISIBLE:
    'An alwaysVisible pin matches no tool of the run: it is not listed, or policy denied it (a denied pin stays hidden).',
  PLUGIN_LOAD_FAILED:
    'A plugin module named in the config could not be resolved or imported, has no factory, or its factory or `apply` threw; `details.module` names it.',
  PRESET_CAPABILITY_MISSING:
    'The config enables a capability whose optional package is not installed; `details.install` is the `npm install` line.',
  PLUGIN_KERNEL_MISMATCH:
    'A plugin module declares a kernel range the running kernel does not satisfy; `details` has both versions.',
});
