/** The error codes `@tool-search/sessions` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const SessionsErrors = defineErrors('@tool-search/sessions', {
  SESSIONS_UNAVAILABLE: 'The session tools were called where no gateway runs turns.',
});
