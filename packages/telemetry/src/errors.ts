/** The error codes `@tool-search/telemetry` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const TelemetryErrors = defineErrors('@tool-search/telemetry', {
  SESSION_LOG_INVALID:
    'A telemetry session log (JSONL) has a line that is not a JSON entry; `details` has the file and line number.',
});
