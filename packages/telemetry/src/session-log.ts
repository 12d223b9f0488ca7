/**
 * The JSONL session log lives in `@tool-search/session-log` (so a reader, like the test-kit, need not depend on this
 * plugin); this plugin writes it and re-exports it under the same names.
 */
export { createSessionLogWriter, readSessionLog, sessionFileName, sessionLogEntries } from '@tool-search/session-log';
export type { SessionLogWriter, JsonlSessionLog, SessionLogReadOptions } from '@tool-search/session-log';
