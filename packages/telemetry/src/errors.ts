/**
 * The error codes `@tool-search/telemetry` raises (the kernel's `ErrorCode` stays closed): its session log's, declared
 * by `@tool-search/session-log` where the log is read, under this package's name as before.
 */
export { SessionLogErrors as TelemetryErrors } from '@tool-search/session-log';
