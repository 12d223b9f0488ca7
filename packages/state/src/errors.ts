/** The error codes `@tool-search/state` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const StateErrors = defineErrors('@tool-search/state', {
  STATE_UNAVAILABLE:
    'The shared state store (Redis) cannot be reached or did not answer in time; state-dependent decisions fail closed.',
});
