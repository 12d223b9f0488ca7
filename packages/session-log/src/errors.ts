/** The error codes `@tool-search/session-log` raises (`@tool-search/telemetry` re-exports them as `TelemetryErrors`). */
import { defineErrors } from '@tool-search/kernel/errors';

export const SessionLogErrors = defineErrors('@tool-search/session-log', {
  SESSION_LOG_INVALID:
    'A telemetry session log (JSONL) has a line that is not a JSON entry; `details` has the file and line number.',
  SESSION_LOG_NOT_A_FILE:
    'A session log path is not a regular file (a FIFO, socket, device, folder, or a symlink where none is followed); it was not read. `details.kind` says what it is.',
});
